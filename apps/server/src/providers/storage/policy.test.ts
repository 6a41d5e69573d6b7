import { createHmac } from 'node:crypto';
import { shanghaiCompactDate } from '@lm/shared/time';
import { IMAGE_CONTENT_TYPES, UPLOAD_MAX_BYTES } from '@lm/shared/upload';
import { describe, expect, it } from 'vitest';
import {
  checkPostForm,
  decodePolicy,
  isSafeKey,
  ossSign,
  ossStringToSign,
  parseUploadKey,
  policyDocument,
  signedPolicy,
  sniffImageType,
  uploadDir,
} from './policy.ts';

const creds = { accessKeyId: 'local', accessKeySecret: 'secret', host: '/api/storage' };
const NOW = new Date('2026-11-22T10:00:00.000Z');
const DIR = 'private/idcard/20261122/u42-0123456789ab/';
const req = {
  dir: DIR,
  maxBytes: UPLOAD_MAX_BYTES,
  contentTypes: IMAGE_CONTENT_TYPES,
  expiresInSeconds: 600,
};

function form(over: Record<string, string | undefined> = {}, policy = signedPolicy(req, creds, NOW)) {
  const fields: Record<string, string | undefined> = {
    key: `${DIR}abcdef1763805600000card.jpg`,
    policy: policy.policy,
    ossaccesskeyid: policy.accessKeyId,
    signature: policy.signature,
    success_action_status: '200',
    'content-type': 'image/jpeg',
    ...over,
  };
  return new Map(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
}

describe('OSS v1 signature', () => {
  it('is base64 HMAC-SHA1 of the text (hand-computed: openssl dgst -sha1 -hmac secret -binary | base64)', () => {
    expect(ossSign('secret', 'policy')).toBe('DQYKsMXInaBeQ2OuQ0nMglptC1c=');
    expect(ossSign('secret', 'policy')).toBe(createHmac('sha1', 'secret').update('policy').digest('base64'));
  });

  it("reproduces the OSS documentation's header-signature example (PUT /oss-example/nelson)", () => {
    const text = ossStringToSign({
      verb: 'PUT',
      contentMd5: 'ODBGOERFMDMzQTczRUY3NUE3NzA5QzdFNUYzMDQxNEM=',
      contentType: 'text/html',
      date: 'Thu, 17 Nov 2005 18:49:58 GMT',
      ossHeaders: { 'X-OSS-Meta-Author': 'foo@bar.com', 'X-OSS-Magic': 'abracadabra' },
      resource: '/oss-example/nelson',
    });
    expect(text).toBe(
      'PUT\nODBGOERFMDMzQTczRUY3NUE3NzA5QzdFNUYzMDQxNEM=\ntext/html\nThu, 17 Nov 2005 18:49:58 GMT\n' +
        'x-oss-magic:abracadabra\nx-oss-meta-author:foo@bar.com\n/oss-example/nelson',
    );
    expect(ossSign('OtxrzxIsfpFjA7SwPzILwy8Bw21TLhquhboDYROV', text)).toBe('26NBxoKdsyly4EDv6inkoDft/yA=');
  });
});

describe('policy document', () => {
  it('carries expiration, the 10 MB range, the dir prefix and the content types', () => {
    const p = signedPolicy(req, creds, NOW);
    expect(p).toMatchObject({ accessKeyId: 'local', dir: DIR, host: '/api/storage' });
    expect(p.expire).toBe(NOW.getTime() / 1000 + 600);
    expect(decodePolicy(p.policy)).toEqual({
      expiration: '2026-11-22T10:10:00.000Z',
      conditions: [
        ['content-length-range', 1, 10485760],
        ['starts-with', '$key', DIR],
        ['in', '$content-type', ['image/jpeg', 'image/png', 'image/webp']],
      ],
    });
    expect(p.signature).toBe(ossSign('secret', p.policy));
    expect(policyDocument(req, NOW)).toEqual(decodePolicy(p.policy));
  });
});

describe('key layout', () => {
  it('a dir per policy: visibility, folder, Shanghai day, owner and 12 random hex', () => {
    const dir = uploadDir({
      visibility: 'public',
      folder: 'avatar',
      owner: { kind: 'staff', id: 7 },
      now: new Date('2026-11-22T17:00:00Z'), // already the 23rd in Shanghai
      random: 'aaaaaaaaaaaa',
    });
    expect(dir).toBe('public/avatar/20261123/s7-aaaaaaaaaaaa/');
    expect(uploadDir({ visibility: 'private', folder: 'face', owner: { kind: 'user', id: 1 } })).toMatch(
      /^private\/face\/\d{8}\/u1-[0-9a-f]{12}\/$/,
    );
    expect(shanghaiCompactDate(new Date('2026-01-01T15:59:59Z'))).toBe('20260101');
  });

  it('parses owner, folder and name back; refuses other layouts and unknown folders', () => {
    expect(parseUploadKey(`${DIR}x.jpg`)).toEqual({
      visibility: 'private',
      folder: 'idcard',
      day: '20261122',
      owner: { kind: 'user', id: 42 },
      dir: DIR,
      name: 'x.jpg',
    });
    expect(parseUploadKey(DIR)?.name).toBe('');
    for (const key of [
      'private/passport/20261122/u42-0123456789ab/x.jpg',
      'secret/idcard/20261122/u42-0123456789ab/x.jpg',
      'private/idcard/2026112/u42-0123456789ab/x.jpg',
      'private/idcard/20261122/x42-0123456789ab/x.jpg',
      'private/idcard/20261122/u42-0123/x.jpg',
      'x.jpg',
    ]) {
      expect(parseUploadKey(key)).toBeNull();
    }
  });

  it('safe keys: no .., empty segment, backslash, control characters or URL syntax', () => {
    expect(isSafeKey(`${DIR}照片.jpg`)).toBe(true);
    for (const key of [
      `${DIR}../u43-0123456789ab/x.jpg`,
      `${DIR}a..b.jpg`,
      `${DIR}a//b.jpg`,
      `${DIR}a\\b.jpg`,
      `${DIR}a\nb.jpg`,
      `${DIR}a%2e.jpg`,
      `${DIR}a?.jpg`,
      `${DIR}a#.jpg`,
      `/${DIR}a.jpg`,
      DIR,
      `${DIR}${'a'.repeat(600)}`,
      `${DIR}${'名'.repeat(70)}.jpg`, // 214 bytes: over the 200 a segment may have
      '',
    ]) {
      expect(isSafeKey(key), key).toBe(false);
    }
  });
});

describe('checkPostForm', () => {
  it('accepts a good form and returns the limits of the policy', () => {
    const r = checkPostForm(form(), creds, NOW);
    expect(r).toMatchObject({
      ok: true,
      form: { dir: DIR, contentType: 'image/jpeg', minBytes: 1, maxBytes: UPLOAD_MAX_BYTES },
    });
  });

  it('names a missing field', () => {
    expect(checkPostForm(form({ signature: undefined }), creds, NOW)).toEqual({
      ok: false,
      reason: 'missing-field',
      field: 'signature',
    });
  });

  it('refuses a wrong signature, another access key id, a changed policy', () => {
    const good = signedPolicy(req, creds, NOW);
    const other = signedPolicy({ ...req, dir: 'private/idcard/20261122/u43-0123456789ab/' }, creds, NOW);
    for (const f of [
      form({ signature: `${good.signature.slice(0, -2)}A=` }),
      form({ ossaccesskeyid: 'LTAI-someone' }),
      form({ policy: other.policy }),
      form({}, signedPolicy(req, { ...creds, accessKeySecret: 'not the secret' }, NOW)),
    ]) {
      expect(checkPostForm(f, creds, NOW)).toMatchObject({ ok: false, reason: 'bad-signature' });
    }
  });

  it('refuses an expired policy', () => {
    const later = new Date(NOW.getTime() + 600_000);
    expect(checkPostForm(form(), creds, later)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('refuses a key outside the dir, or with ..', () => {
    const outside = form({ key: 'private/idcard/20261122/u43-0123456789ab/x.jpg' });
    expect(checkPostForm(outside, creds, NOW)).toMatchObject({ reason: 'key-outside-dir' });
    const dots = form({ key: `${DIR}../../u43-0123456789ab/x.jpg` });
    expect(checkPostForm(dots, creds, NOW)).toMatchObject({ reason: 'bad-key' });
  });

  it('refuses a content type outside the policy', () => {
    expect(checkPostForm(form({ 'content-type': 'text/html' }), creds, NOW)).toMatchObject({
      reason: 'type-not-allowed',
    });
    expect(checkPostForm(form({ 'content-type': undefined }), creds, NOW)).toMatchObject({
      reason: 'type-not-allowed',
    });
  });

  it('evaluates eq / not-in conditions and exact-match objects of a signed policy', () => {
    const doc = {
      expiration: new Date(NOW.getTime() + 60_000).toISOString(),
      conditions: [
        ['starts-with', '$key', DIR],
        { success_action_status: '200' },
        ['not-in', '$content-type', ['image/png']],
        ['eq', '$x-oss-meta-tag', 'card'],
      ],
    };
    const policy = Buffer.from(JSON.stringify(doc)).toString('base64');
    const signed = { ...signedPolicy(req, creds, NOW), policy, signature: ossSign('secret', policy) };
    expect(checkPostForm(form({ 'x-oss-meta-tag': 'card' }, signed), creds, NOW).ok).toBe(true);
    expect(checkPostForm(form({ 'x-oss-meta-tag': 'other' }, signed), creds, NOW)).toMatchObject({
      reason: 'condition-failed',
      field: 'x-oss-meta-tag',
    });
    expect(
      checkPostForm(form({ 'x-oss-meta-tag': 'card', success_action_status: '204' }, signed), creds, NOW),
    ).toMatchObject({ reason: 'condition-failed', field: 'success_action_status' });
    expect(
      checkPostForm(form({ 'x-oss-meta-tag': 'card', 'content-type': 'image/png' }, signed), creds, NOW),
    ).toMatchObject({ reason: 'type-not-allowed' });
  });

  it('refuses a signed policy without a dir of our layout (the owner comes from it)', () => {
    const doc = { expiration: new Date(NOW.getTime() + 60_000).toISOString(), conditions: [] };
    const policy = Buffer.from(JSON.stringify(doc)).toString('base64');
    const signed = { ...signedPolicy(req, creds, NOW), policy, signature: ossSign('secret', policy) };
    expect(checkPostForm(form({}, signed), creds, NOW)).toMatchObject({ reason: 'malformed-policy' });
  });
});

describe('sniffImageType', () => {
  it('knows JPEG, PNG and WebP by their first bytes', () => {
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('89504e470d0a1a0a0000000d', 'hex'))).toBe('image/png');
    expect(sniffImageType(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'))).toBeNull();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffImageType(Buffer.from([0xff, 0xd8]))).toBeNull();
  });
});
