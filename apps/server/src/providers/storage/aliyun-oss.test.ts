import { IMAGE_CONTENT_TYPES } from '@lm/shared/upload';
import { describe, expect, it, vi } from 'vitest';
import { AliyunOssStorageProvider, encodeKey, signedObjectUrl } from './aliyun-oss.ts';
import { decodePolicy, ossSign } from './policy.ts';

const DOC_ID = '44CF9590006BF252F707';
const DOC_SECRET = 'OtxrzxIsfpFjA7SwPzILwy8Bw21TLhquhboDYROV';

const oss = (fetchImpl?: typeof fetch, publicHost?: string) =>
  new AliyunOssStorageProvider({
    accessKeyId: DOC_ID,
    accessKeySecret: DOC_SECRET,
    bucket: 'loans-test',
    endpoint: 'oss-cn-hangzhou.aliyuncs.com',
    ...(publicHost ? { publicHost } : {}),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });

describe('Aliyun OSS adapter', () => {
  it("signs a GET URL like the OSS documentation's URL-signature example (oss-api.pdf, Expires 1141889120)", () => {
    const url = signedObjectUrl(
      {
        accessKeyId: DOC_ID,
        accessKeySecret: DOC_SECRET,
        bucket: 'oss-example',
        bucketUrl: 'https://oss-example.oss-cn-hangzhou.aliyuncs.com',
      },
      'oss-api.pdf',
      1141889120,
    );
    expect(url).toBe(
      'https://oss-example.oss-cn-hangzhou.aliyuncs.com/oss-api.pdf' +
        '?OSSAccessKeyId=44CF9590006BF252F707&Expires=1141889120&Signature=EwaNTn1erJGkimiJ9WmXgwnANLc%3D',
    );
  });

  it('issues the same policy format as the local store, with the bucket as host', () => {
    const p = oss().createPolicy({
      dir: 'private/face/20261122/u1-0123456789ab/',
      maxBytes: 10485760,
      contentTypes: IMAGE_CONTENT_TYPES,
      expiresInSeconds: 600,
    });
    expect(p.host).toBe('https://loans-test.oss-cn-hangzhou.aliyuncs.com');
    expect(p.accessKeyId).toBe(DOC_ID);
    expect(p.signature).toBe(ossSign(DOC_SECRET, p.policy));
    expect(decodePolicy(p.policy)?.conditions).toContainEqual([
      'starts-with',
      '$key',
      'private/face/20261122/u1-0123456789ab/',
    ]);
  });

  it('keyFromUrl: the bucket URL or the public host, decoded; null for anything else', () => {
    const store = oss(undefined, 'https://img.example.com/');
    const key = 'public/avatar/20261122/u1-0123456789ab/ab12cd1763805600000头像.png';
    expect(store.keyFromUrl(`https://img.example.com/${key}`)).toBe(key);
    expect(store.keyFromUrl(`https://img.example.com/${encodeKey(key)}?x-oss-process=a`)).toBe(key);
    expect(store.keyFromUrl(`https://loans-test.oss-cn-hangzhou.aliyuncs.com/${key}`)).toBe(key);
    expect(store.keyFromUrl(`https://evil.example.com/${key}`)).toBeNull();
    expect(store.keyFromUrl(`/api/storage/${key}`)).toBeNull();
    expect(store.keyFromUrl('not a url')).toBeNull();
  });

  it('getObject fetches a signed URL; 404 is null; other failures throw', async () => {
    const fetchMock = vi.fn(async (url: string | URL | Request) => {
      const u = new URL(String(url));
      if (u.pathname.endsWith('missing.jpg')) return new Response('', { status: 404 });
      if (u.pathname.endsWith('denied.jpg')) return new Response('', { status: 403 });
      return new Response(Buffer.from([0xff, 0xd8, 0xff]), { headers: { 'content-type': 'image/jpeg' } });
    });
    const store = oss(fetchMock as unknown as typeof fetch);
    const dir = 'private/idcard/20261122/u1-0123456789ab/';
    const object = await store.getObject(`${dir}证件.jpg`);
    expect(object).toEqual({ body: Buffer.from([0xff, 0xd8, 0xff]), contentType: 'image/jpeg' });
    const called = new URL(String(fetchMock.mock.calls[0]![0]));
    expect(called.origin).toBe('https://loans-test.oss-cn-hangzhou.aliyuncs.com');
    expect(called.pathname).toBe(`/${encodeKey(`${dir}证件.jpg`)}`);
    const expires = called.searchParams.get('Expires')!;
    expect(called.searchParams.get('Signature')).toBe(
      ossSign(DOC_SECRET, `GET\n\n\n${expires}\n/loans-test/${dir}证件.jpg`),
    );
    await expect(store.getObject(`${dir}missing.jpg`)).resolves.toBeNull();
    await expect(store.getObject(`${dir}denied.jpg`)).rejects.toThrow(/403/);
  });
});
