import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ossSign, ossStringToSign } from '../../providers/storage/policy.ts';
import { LocalManifestStore, MANIFEST_KEY, OssManifestStore } from './manifest-store.ts';
import {
  type BannerCandidate,
  buildManifest,
  channelOfPlatformParam,
  HIDDEN_PLACEHOLDER,
  ID_PLACEHOLDER,
  iconsOf,
  newestVersion,
  PHONE_PLACEHOLDER,
  pickBanner,
  sameVersions,
  sanitizeLogQuery,
  sanitizeReportData,
  signTempLink,
  stripPersonalNumbers,
  tempLinkRedirect,
  type VersionRow,
  verifyTempLink,
} from './rules.ts';

describe('stripPersonalNumbers', () => {
  it('hides 11-digit phone-like numbers with or without prefix and separators', () => {
    expect(stripPersonalNumbers('手机13812345678')).toBe(`手机${PHONE_PLACEHOLDER}`);
    expect(stripPersonalNumbers('+8613812345678 / 0086 138 1234 5678 / 138-1234-5678')).toBe(
      `${PHONE_PLACEHOLDER} / ${PHONE_PLACEHOLDER} / ${PHONE_PLACEHOLDER}`,
    );
    expect(stripPersonalNumbers('a10012345678b')).toBe(`a${PHONE_PLACEHOLDER}b`);
  });

  it('hides ID numbers and leaves other numbers alone', () => {
    expect(stripPersonalNumbers('证件 11010519491231002X 与 110105491231002')).toBe(
      `证件 ${ID_PLACEHOLDER} 与 ${ID_PLACEHOLDER}`,
    );
    // A 13-digit timestamp, a 10-digit number and a 12-digit one are not phones.
    expect(stripPersonalNumbers('t=1700000000000 n=1381234567 m=138123456789')).toBe(
      't=1700000000000 n=1381234567 m=138123456789',
    );
    expect(stripPersonalNumbers('订单23812345678')).toBe('订单23812345678');
  });
});

describe('sanitizeLogQuery', () => {
  it('keeps 20 keys, cuts values to 200 characters, hides personal keys and numbers', () => {
    const query: Record<string, string> = { Mobile: '13812345678', page: '/x', ref: 'a13912345678' };
    for (let i = 0; i < 25; i++) query[`k${i}`] = 'v'.repeat(250);
    const { values, droppedKeys } = sanitizeLogQuery(query);
    expect(Object.keys(values)).toHaveLength(20);
    expect(droppedKeys).toBe(8);
    expect(values.Mobile).toBe(HIDDEN_PLACEHOLDER);
    expect(values.ref).toBe(`a${PHONE_PLACEHOLDER}`);
    expect(values.k0).toHaveLength(200);
  });

  it('cuts before hiding, so a number split at the cut cannot pass', () => {
    const value = `${'x'.repeat(190)}13812345678`;
    // Cut at 200: '1381234567' (10 digits) stays, it is no longer a whole phone.
    expect(sanitizeLogQuery({ a: value }).values.a).toBe(`${'x'.repeat(190)}1381234567`);
  });
});

describe('sanitizeReportData', () => {
  it('hides personal keys, numbers inside texts and numbers that are phones', () => {
    expect(
      sanitizeReportData({ phone: 'x', note: '电话13812345678', n: 13812345678, ok: 3, f: true }),
    ).toEqual({
      phone: HIDDEN_PLACEHOLDER,
      note: `电话${PHONE_PLACEHOLDER}`,
      n: PHONE_PLACEHOLDER,
      ok: 3,
      f: true,
    });
    expect(sanitizeReportData(undefined)).toEqual({});
  });
});

describe('channelOfPlatformParam', () => {
  it('reads a well-formed currentChannelCode and ignores anything else', () => {
    expect(channelOfPlatformParam('{"channel":0,"currentChannelCode":"demo-1"}')).toBe('demo-1');
    expect(channelOfPlatformParam('{"currentChannelCode":"bad code"}')).toBeUndefined();
    expect(channelOfPlatformParam('{"currentChannelCode":""}')).toBeUndefined();
    expect(channelOfPlatformParam('not json')).toBeUndefined();
    expect(channelOfPlatformParam(undefined)).toBeUndefined();
    expect(channelOfPlatformParam(['a'])).toBeUndefined();
  });
});

describe('pickBanner', () => {
  const now = new Date('2026-05-01T04:00:00Z');
  const b = (id: number, over: Partial<BannerCandidate> = {}): BannerCandidate => ({
    id,
    placement: 'homeDialog',
    enabled: true,
    channelCodes: null,
    sort: 5,
    startsAt: new Date('2026-04-01T00:00:00Z'),
    endsAt: null,
    ...over,
  });

  it('takes the lowest sort, then the latest start, then the newest row', () => {
    expect(pickBanner([b(1), b(2, { sort: 3 }), b(3)], 'homeDialog', undefined, now)?.id).toBe(2);
    expect(
      pickBanner([b(1, { startsAt: new Date('2026-04-20T00:00:00Z') }), b(2)], 'homeDialog', 'x', now)?.id,
    ).toBe(1);
    expect(pickBanner([b(1), b(2)], 'homeDialog', 'x', now)?.id).toBe(2);
  });

  it('keeps to the channel, the placement, the switch and the time window', () => {
    const rows = [
      b(1, { sort: 9 }),
      b(2, { sort: 1, channelCodes: ['ch-a'] }),
      b(3, { sort: 0, enabled: false }),
      b(4, { sort: 0, placement: 'other' }),
      b(5, { sort: 0, startsAt: new Date('2026-05-01T04:00:01Z') }),
      b(6, { sort: 0, endsAt: now }),
      b(7, { sort: 0, channelCodes: [] }),
    ];
    expect(pickBanner(rows, 'homeDialog', 'ch-a', now)?.id).toBe(2);
    expect(pickBanner(rows, 'homeDialog', 'ch-b', now)?.id).toBe(1);
    expect(pickBanner(rows, 'homeDialog', undefined, now)?.id).toBe(1);
    // Ends at "now": already over; starts at "now": shows.
    expect(pickBanner([b(8, { startsAt: now })], 'homeDialog', undefined, now)?.id).toBe(8);
    expect(pickBanner([b(6, { endsAt: now })], 'homeDialog', undefined, now)).toBeNull();
  });
});

describe('app versions', () => {
  const now = new Date('2026-05-01T00:00:00Z');
  const v = (
    platform: 'android' | 'ios',
    version: string,
    build: number,
    publishedAt: string,
  ): VersionRow => ({
    platform,
    version,
    build,
    downloadUrl: `https://download.example.com/${version}`,
    notes: '',
    forceUpdate: false,
    publishedAt: new Date(publishedAt),
  });
  const rows = [
    v('android', '2.0.0', 200, '2026-01-01T00:00:00Z'),
    v('android', '2.1.0', 210, '2026-02-01T00:00:00Z'),
    v('android', '3.0.0', 300, '2026-06-01T00:00:00Z'),
    v('ios', '2.0.1', 201, '2026-01-05T00:00:00Z'),
  ];

  it('the newest is the highest build already published', () => {
    expect(newestVersion(rows, 'android', now)?.version).toBe('2.1.0');
    expect(newestVersion(rows, 'ios', now)?.version).toBe('2.0.1');
    expect(newestVersion([], 'ios', now)).toBeNull();
  });

  it('the manifest holds the newest per platform; same versions need no rewrite', () => {
    const m = buildManifest(rows, now);
    expect(m.android?.version).toBe('2.1.0');
    expect(m.ios?.publishedAt).toBe('2026-01-05T00:00:00.000Z');
    expect(m.generatedAt).toBe(now.toISOString());
    const later = buildManifest(rows, new Date('2026-05-02T00:00:00Z'));
    expect(sameVersions(m, later)).toBe(true);
    expect(sameVersions(null, later)).toBe(false);
    expect(sameVersions(m, buildManifest(rows, new Date('2026-07-01T00:00:00Z')))).toBe(false);
  });
});

describe('iconsOf', () => {
  it('keeps well-formed icons with same-site paths, once per key', () => {
    const ok = { key: 'a', title: '甲', icon: '/icons/a.svg', path: '/my' };
    expect(
      iconsOf({
        icons: [
          ok,
          { ...ok },
          { key: 'b', title: '乙', icon: '/icons/b.svg', path: '//evil.example.net' },
          { key: 'c', title: '丙', icon: 'data:image/svg+xml,x', path: '/' },
          'x',
        ],
      }),
    ).toEqual([ok]);
    expect(iconsOf({ icons: 'no' })).toEqual([]);
    expect(iconsOf(undefined)).toEqual([]);
  });
});

describe('temporary link', () => {
  const key = 'k'.repeat(43);
  const now = new Date('2026-05-01T00:00:00Z');

  it('verifies within 10 minutes and leads to the page with the channel', () => {
    const { token, expiresAt } = signTempLink(key, { type: 'download', channel: 'demo' }, now);
    expect(expiresAt.toISOString()).toBe('2026-05-01T00:10:00.000Z');
    const check = verifyTempLink(key, token, new Date('2026-05-01T00:09:59Z'));
    expect(check).toEqual({ ok: true, payload: { t: 'download', c: 'demo', e: 1_777_594_200 } });
    expect(tempLinkRedirect(check)).toBe('/download?adChannelCode=demo');
    const plain = signTempLink(key, { type: 'service' }, now).token;
    expect(tempLinkRedirect(verifyTempLink(key, plain, now))).toBe('/apply_my');
  });

  it('refuses expired, forged and malformed tokens', () => {
    const { token } = signTempLink(key, { type: 'service', channel: 'demo' }, now);
    const expired = verifyTempLink(key, token, new Date('2026-05-01T00:10:00Z'));
    expect(expired).toEqual({ ok: false, reason: 'expired', type: 'service' });
    expect(tempLinkRedirect(expired)).toBe('/apply_my?linkExpired=1');
    expect(verifyTempLink('other', token, now)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyTempLink(key, `${token}.x`, now)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(verifyTempLink(key, 'abc', now)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(tempLinkRedirect({ ok: false, reason: 'malformed' })).toBe('/download?linkExpired=1');
  });
});

describe('manifest stores', () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-manifest-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('local: writes under the store root, served below the store host', async () => {
    const store = new LocalManifestStore({ root: dir, host: '/api/storage' } as never);
    expect(store.url).toBe(`/api/storage/${MANIFEST_KEY}`);
    expect(await store.read()).toBeNull();
    await store.write('{"a":1}');
    await store.write('{"a":2}');
    expect(await store.read()).toBe('{"a":2}');
  });

  it('OSS: a signed public-read PUT of the JSON', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const store = new OssManifestStore({
      accessKeyId: 'id',
      accessKeySecret: 'secret',
      bucket: 'bucket',
      endpoint: 'oss-cn-hangzhou.aliyuncs.com',
      publicHost: 'https://img.example.com/',
      fetch: (async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        return new Response('', { status: 200 });
      }) as typeof fetch,
    });
    expect(store.url).toBe('https://img.example.com/public/app/download.json');
    const at = new Date('2026-05-01T00:00:00Z');
    const { url, init } = store.request('{}', at);
    expect(url).toBe('https://bucket.oss-cn-hangzhou.aliyuncs.com/public/app/download.json');
    const headers = init.headers as Record<string, string>;
    const expected = ossSign(
      'secret',
      ossStringToSign({
        verb: 'PUT',
        contentType: 'application/json; charset=utf-8',
        date: at.toUTCString(),
        ossHeaders: { 'x-oss-object-acl': 'public-read' },
        resource: '/bucket/public/app/download.json',
      }),
    );
    expect(headers.Authorization).toBe(`OSS id:${expected}`);
    expect(headers['x-oss-object-acl']).toBe('public-read');
    await store.write('{"b":1}');
    expect(calls[0]?.init.body).toBe('{"b":1}');
    const failing = new OssManifestStore({
      accessKeyId: 'id',
      accessKeySecret: 'secret',
      bucket: 'bucket',
      endpoint: 'e.example.com',
      publicHost: 'https://img.example.com',
      fetch: (async () => new Response('<Error/>', { status: 403 })) as unknown as typeof fetch,
    });
    await expect(failing.write('{}')).rejects.toThrow('403');
  });
});
