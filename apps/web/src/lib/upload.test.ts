import { UPLOAD_MAX_BYTES } from '@lm/shared/upload';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./api-client', () => ({ api: { get: vi.fn() } }));
vi.mock('./toast', () => ({ toast: { show: vi.fn() } }));
vi.mock('./session', () => ({ getToken: () => 'tok-1' }));

const { api } = await import('./api-client');
const { toast } = await import('./toast');
const { buildUploadFileName, cleanFileName, randomPrefix, storageReadPath, uploadFile, loadPrivateImage } =
  await import('./upload');

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 3]);
const POLICY = {
  accessKeyId: 'local',
  dir: 'private/idcard/20261122/u1-0123456789ab/',
  policy: 'eyJleHBpcmF0aW9uIjoiLi4uIn0=',
  signature: 'c2lnbmF0dXJl',
  host: '/api/storage',
  expire: 1795350000,
};

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  vi.mocked(api.get).mockReset().mockResolvedValue(POLICY);
  vi.mocked(toast.show).mockReset();
  fetchMock = vi.fn(async () => new Response(JSON.stringify({ code: 200, msg: 'success', data: {} })));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('file name (spec §5, §7)', () => {
  it('removes space, quotes, # % & + , : ; < = > ? @ \\ | (and / and runs of dots)', () => {
    expect(cleanFileName(`a b'c"d#e%f&g+h,i:j;k<l=m>n?o@p\\q|r.jpg`)).toBe('abcdefghijklmnopqr.jpg');
    expect(cleanFileName('../x/y..jpg')).toBe('.xy.jpg');
    expect(cleanFileName('身份证 正面.JPG')).toBe('身份证正面.JPG');
  });

  it('cuts long names to 60 characters, keeping the extension', () => {
    const cut = cleanFileName(`${'长'.repeat(100)}.jpeg`);
    expect([...cut]).toHaveLength(60);
    expect(cut.endsWith('.jpeg')).toBe(true);
  });

  it('is 6 random characters + timestamp + cleaned name', () => {
    expect(buildUploadFileName('my photo#1.png', 1763805600000, 'Ab3dE9')).toBe(
      'Ab3dE91763805600000myphoto1.png',
    );
    expect(buildUploadFileName('x.png')).toMatch(/^[A-Za-z0-9]{6}\d{13}x\.png$/);
    const prefixes = new Set(Array.from({ length: 50 }, () => randomPrefix()));
    expect(prefixes.size).toBe(50);
    for (const p of prefixes) expect(p).toMatch(/^[A-Za-z0-9]{6}$/);
  });
});

describe('uploadFile', () => {
  it('over 10MB: the toast, and no request at all', async () => {
    const big = new File([new Uint8Array(UPLOAD_MAX_BYTES + 1)], 'big.jpg', { type: 'image/jpeg' });
    await expect(uploadFile(big, 'idcard')).rejects.toThrow('文件大小不能超过10MB');
    expect(toast.show).toHaveBeenCalledWith(expect.objectContaining({ content: '文件大小不能超过10MB' }));
    expect(api.get).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('exactly 10MB is allowed', async () => {
    const file = new File([JPEG, new Uint8Array(UPLOAD_MAX_BYTES - JPEG.length)], 'max.jpg');
    await expect(uploadFile(file, 'idcard')).resolves.toMatch(/^\/api\/storage\/private\/idcard\//);
  });

  it('fetches the policy, posts the OSS form (file last) to the host, answers host/key', async () => {
    // No type from the browser (camera file in a webview): sniffed from the bytes.
    const file = new File([JPEG], '身份证 正面.jpg');
    const url = await uploadFile(file, 'idcard');

    expect(api.get).toHaveBeenCalledWith(
      '/api/common/upload/policy',
      expect.objectContaining({ params: { image: 'idcard' }, cancelPrevious: false }),
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [host, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(host).toBe('/api/storage');
    expect(init.method).toBe('POST');
    const form = init.body as FormData;
    expect([...form.keys()]).toEqual([
      'key',
      'policy',
      'OSSAccessKeyId',
      'success_action_status',
      'signature',
      'Content-Type',
      'file',
    ]);
    const key = form.get('key') as string;
    expect(key).toMatch(/^private\/idcard\/20261122\/u1-0123456789ab\/[A-Za-z0-9]{6}\d{13}身份证正面\.jpg$/);
    expect(form.get('policy')).toBe(POLICY.policy);
    expect(form.get('OSSAccessKeyId')).toBe('local');
    expect(form.get('success_action_status')).toBe('200');
    expect(form.get('signature')).toBe(POLICY.signature);
    expect(form.get('Content-Type')).toBe('image/jpeg');
    expect(url).toBe(`/api/storage/${key}`);
  });

  it('asks for a private avatar only when told', async () => {
    await uploadFile(new File([JPEG], 'a.jpg'), 'avatar', { isPrivate: true });
    expect(vi.mocked(api.get).mock.calls[0]![1]).toMatchObject({
      params: { image: 'avatar', isPrivate: true },
    });
  });

  it("shows the store's refusal message, or a generic one for OSS's XML", async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ code: 1103, msg: '上传签名校验失败', data: null }), { status: 401 }),
    );
    await expect(uploadFile(new File([JPEG], 'a.jpg'), 'face')).rejects.toThrow('上传签名校验失败');
    expect(toast.show).toHaveBeenLastCalledWith(expect.objectContaining({ content: '上传签名校验失败' }));

    fetchMock.mockResolvedValueOnce(
      new Response('<Error><Code>AccessDenied</Code></Error>', { status: 403 }),
    );
    await expect(uploadFile(new File([JPEG], 'a.jpg'), 'face')).rejects.toThrow('上传失败，请重试');

    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(uploadFile(new File([JPEG], 'a.jpg'), 'face')).rejects.toThrow('网络连接错误');
  });

  it('a failed policy call rejects without posting (api-client already toasted it)', async () => {
    vi.mocked(api.get).mockRejectedValueOnce(new Error('授权已过期，请重新登录'));
    await expect(uploadFile(new File([JPEG], 'a.jpg'), 'idcard')).rejects.toThrow('授权已过期');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('reading private images', () => {
  it('maps either store’s URL to /api/storage/<key>', () => {
    const key = 'private/face/20261122/u1-0123456789ab/x.jpg';
    expect(storageReadPath(`/api/storage/${key}`)).toBe(`/api/storage/${key}`);
    expect(storageReadPath(`https://b.oss-cn-hangzhou.aliyuncs.com/${key}`)).toBe(`/api/storage/${key}`);
    expect(storageReadPath(`https://img.example.com/${key}?x=1`)).toBe(`/api/storage/${key}`);
  });

  it('fetches with the token and answers an object URL', async () => {
    fetchMock.mockResolvedValueOnce(new Response(new Blob([JPEG], { type: 'image/jpeg' })));
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    await expect(loadPrivateImage('/api/storage/private/face/20261122/u1-0123456789ab/x.jpg')).resolves.toBe(
      'blob:x',
    );
    expect((fetchMock.mock.calls[0]![1] as RequestInit).headers).toEqual({ accessToken: 'tok-1' });
    created.mockRestore();
  });
});
