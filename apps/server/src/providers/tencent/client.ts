import { createHash, createHmac } from 'node:crypto';
import { z } from 'zod';

/**
 * Tencent Cloud API 3.0: a JSON POST to `https://<service>.tencentcloudapi.com/` signed with
 * TC3-HMAC-SHA256 (headers X-TC-Action, X-TC-Version, X-TC-Timestamp, optional X-TC-Region). The
 * answer is `{Response: {...fields, RequestId}}`, or `{Response: {Error: {Code, Message}, RequestId}}`.
 * Written from Tencent's "Signature v3" documentation; never run against the real service here.
 */

export class TencentApiError extends Error {
  constructor(
    message: string,
    /** Tencent's error code (e.g. `FailedOperation.ImageBlur`), or the HTTP / network problem. */
    readonly code: string,
  ) {
    super(message);
    this.name = 'TencentApiError';
  }
}

export interface TencentCredentials {
  secretId: string;
  secretKey: string;
}

export interface SignInput {
  service: string;
  host: string;
  action: string;
  version: string;
  region?: string | undefined;
  /** The exact JSON body sent. */
  payload: string;
  /** Unix seconds. */
  timestamp: number;
}

const sha256hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s, 'utf8').digest();

const CONTENT_TYPE = 'application/json; charset=utf-8';
const SIGNED_HEADERS = 'content-type;host';

/** Step 1: the canonical request of a JSON POST to `/` signing content-type and host. */
export function tc3CanonicalRequest(host: string, payload: string): string {
  return [
    'POST',
    '/',
    '',
    `content-type:${CONTENT_TYPE}\nhost:${host}\n`,
    SIGNED_HEADERS,
    sha256hex(payload),
  ].join('\n');
}

/** The UTC date of a timestamp (never the machine's zone), as the credential scope wants it. */
export function tc3Date(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

/** Step 2: the string to sign. */
export function tc3StringToSign(timestamp: number, scope: string, canonicalRequest: string): string {
  return ['TC3-HMAC-SHA256', String(timestamp), scope, sha256hex(canonicalRequest)].join('\n');
}

/** The request headers, Authorization included (TC3-HMAC-SHA256, signed headers content-type;host). */
export function tc3Headers(creds: TencentCredentials, i: SignInput): Record<string, string> {
  const date = tc3Date(i.timestamp);
  const scope = `${date}/${i.service}/tc3_request`;
  const stringToSign = tc3StringToSign(i.timestamp, scope, tc3CanonicalRequest(i.host, i.payload));
  // Step 3: the derived key, then the signature.
  const secretDate = hmac(`TC3${creds.secretKey}`, date);
  const secretService = hmac(secretDate, i.service);
  const secretSigning = hmac(secretService, 'tc3_request');
  const signature = createHmac('sha256', secretSigning).update(stringToSign, 'utf8').digest('hex');
  return {
    authorization: `TC3-HMAC-SHA256 Credential=${creds.secretId}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`,
    'content-type': CONTENT_TYPE,
    host: i.host,
    'x-tc-action': i.action,
    'x-tc-version': i.version,
    'x-tc-timestamp': String(i.timestamp),
    ...(i.region ? { 'x-tc-region': i.region } : {}),
  };
}

const envelope = z.object({
  Response: z
    .object({
      Error: z.object({ Code: z.string(), Message: z.string().optional() }).optional(),
      RequestId: z.string().optional(),
    })
    .passthrough(),
});

export interface TencentClientOptions extends TencentCredentials {
  region?: string | undefined;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Seconds since the epoch (tests). */
  now?: () => number;
}

/** One call: signs, posts, and returns `Response` or throws TencentApiError (no secret in messages). */
export class TencentApiClient {
  constructor(private readonly o: TencentClientOptions) {}

  async call(
    service: string,
    version: string,
    action: string,
    body: unknown,
  ): Promise<Record<string, unknown>> {
    const host = `${service}.tencentcloudapi.com`;
    const payload = JSON.stringify(body);
    const timestamp = Math.floor(this.o.now?.() ?? Date.now() / 1000);
    const headers = tc3Headers(this.o, {
      service,
      host,
      action,
      version,
      region: this.o.region,
      payload,
      timestamp,
    });
    const timeoutMs = this.o.timeoutMs ?? 10_000;
    let res: Response;
    try {
      res = await (this.o.fetch ?? globalThis.fetch)(`https://${host}/`, {
        method: 'POST',
        headers,
        body: payload,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const e = err as Error;
      throw new TencentApiError(
        e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : e.message,
        e.name === 'TimeoutError' ? 'timeout' : 'network',
      );
    }
    if (!res.ok) throw new TencentApiError(`HTTP ${res.status}`, `http-${res.status}`);
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw new TencentApiError('answer is not JSON', 'malformed');
    }
    const parsed = envelope.safeParse(json);
    if (!parsed.success) throw new TencentApiError('malformed answer', 'malformed');
    const { Error: error, ...rest } = parsed.data.Response;
    if (error) throw new TencentApiError(`${error.Code} ${error.Message ?? ''}`.trim(), error.Code);
    return rest;
  }
}
