import { UPLOAD_MAX_BYTES } from '@lm/shared/upload';
import { keyAfterHost } from './local.ts';
import { ossSign, ossStringToSign, signedPolicy } from './policy.ts';
import type { PolicyRequest, StorageProvider, StoredObject, UploadPolicy } from './types.ts';

export const OSS_GET_TIMEOUT_MS = 10_000;

export class StorageServiceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'StorageServiceError';
  }
}

export interface AliyunOssOptions {
  accessKeyId: string;
  accessKeySecret: string;
  bucket: string;
  /** Region endpoint without scheme, e.g. `oss-cn-hangzhou.aliyuncs.com`. */
  endpoint: string;
  /** A domain bound to the bucket (CDN / custom domain), e.g. `https://img.example.com`. */
  publicHost?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Object name in a URL path: each segment percent-encoded, the slashes kept. */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/**
 * Aliyun OSS. The browser posts straight to the bucket with the same policy as the local store
 * (PostObject, signature v1); the server reads objects with a signed URL (v1 query signature), so
 * the bucket can stay private with anonymous read granted on `public/*` only. Written from the OSS
 * documentation; the signature code is tested against the documentation's published examples, the
 * adapter itself was never run against the real service.
 */
export class AliyunOssStorageProvider implements StorageProvider {
  readonly name = 'aliyun-oss' as const;
  /** `https://<bucket>.<endpoint>`: where the server reads. */
  readonly bucketUrl: string;
  /** Where the browser posts and what object URLs start with. */
  readonly host: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly o: AliyunOssOptions) {
    this.bucketUrl = `https://${o.bucket}.${o.endpoint}`;
    this.host = (o.publicHost ?? this.bucketUrl).replace(/\/+$/, '');
    this.fetch = o.fetch ?? globalThis.fetch;
    this.timeoutMs = o.timeoutMs ?? OSS_GET_TIMEOUT_MS;
  }

  createPolicy(req: PolicyRequest): UploadPolicy {
    return signedPolicy(req, {
      accessKeyId: this.o.accessKeyId,
      accessKeySecret: this.o.accessKeySecret,
      host: this.host,
    });
  }

  /** A URL that reads `key` until `expiresInSeconds` from `now` (e.g. for the console). */
  signedUrl(key: string, expiresInSeconds = 300, now: Date = new Date()): string {
    const expires = Math.floor(now.getTime() / 1000) + expiresInSeconds;
    return signedObjectUrl({ ...this.o, bucketUrl: this.bucketUrl }, key, expires);
  }

  async getObject(key: string): Promise<StoredObject | null> {
    let res: Response;
    try {
      res = await this.fetch(this.signedUrl(key), { signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      const e = err as Error;
      throw new StorageServiceError(
        e.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : e.message,
      );
    }
    if (res.status === 404) return null;
    if (!res.ok) throw new StorageServiceError(`OSS answered ${res.status}`, res.status);
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > UPLOAD_MAX_BYTES * 2) throw new StorageServiceError(`object of ${length} bytes`);
    return {
      body: Buffer.from(await res.arrayBuffer()),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    };
  }

  keyFromUrl(url: string): string | null {
    return keyAfterHost(url, this.host) ?? keyAfterHost(url, this.bucketUrl);
  }
}

/** `GET` URL signed with the v1 query signature (OSSAccessKeyId, Expires, Signature). */
export function signedObjectUrl(
  o: { accessKeyId: string; accessKeySecret: string; bucket: string; bucketUrl: string },
  key: string,
  expires: number,
): string {
  const signature = ossSign(
    o.accessKeySecret,
    ossStringToSign({ verb: 'GET', date: String(expires), resource: `/${o.bucket}/${key}` }),
  );
  const query = new URLSearchParams({
    OSSAccessKeyId: o.accessKeyId,
    Expires: String(expires),
    Signature: signature,
  });
  return `${o.bucketUrl}/${encodeKey(key)}?${query.toString()}`;
}
