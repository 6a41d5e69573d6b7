import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { RealNameProvider, RealNameQuery, RealNameResult } from './types.ts';

/**
 * Aliyun API market "身份证二要素" (ID two-factor) product by 数脉 (shumaidata): POST
 * `https://eid.shumaidata.com/eid/check`, form body `idcard`, `name`, header
 * `Authorization: APPCODE <AppCode>`. Answer:
 * `{ code: "0", message: "成功", result: { res: "1"|"2"|"3", description, sex, birthday, address } }`
 * where res 1 = consistent, 2 = inconsistent, 3 = no record. A non-zero code is an error
 * (bad parameters, quota, service failure).
 */
export const ALIYUN_REALNAME_URL = 'https://eid.shumaidata.com/eid/check';
export const ALIYUN_REALNAME_TIMEOUT_MS = 5000;

export class RealNameServiceError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'RealNameServiceError';
  }
}

const answer = z.object({
  code: z.union([z.string(), z.number()]).transform(String),
  message: z.string().optional(),
  result: z.object({ res: z.union([z.string(), z.number()]).transform(String) }).nullish(),
});

/** Maps the service's JSON to our result; throws RealNameServiceError for errors and odd answers. */
export function mapAliyunAnswer(json: unknown): RealNameResult {
  const parsed = answer.safeParse(json);
  if (!parsed.success) throw new RealNameServiceError('malformed answer');
  const { code, message, result } = parsed.data;
  if (code !== '0') throw new RealNameServiceError(`code ${code} ${message ?? ''}`.trim(), code);
  switch (result?.res) {
    case '1':
      return { verified: true, method: 'provider', reason: 'match' };
    case '2':
      return { verified: false, method: 'provider', reason: 'mismatch' };
    case '3':
      return { verified: false, method: 'provider', reason: 'no-record' };
    default:
      throw new RealNameServiceError(`unknown res ${result?.res ?? '(none)'}`);
  }
}

export interface AliyunRealNameOptions {
  appCode: string;
  log: FastifyBaseLogger;
  url?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * The adapter. Name and number go in the POST body (never the URL); failures are logged without
 * them or the AppCode and answered as `verified: null, reason: 'unavailable'`.
 */
export class AliyunRealNameProvider implements RealNameProvider {
  readonly name = 'aliyun';
  private readonly fetch: typeof fetch;
  private readonly url: string;
  private readonly timeoutMs: number;

  constructor(private readonly o: AliyunRealNameOptions) {
    this.fetch = o.fetch ?? globalThis.fetch;
    this.url = o.url ?? ALIYUN_REALNAME_URL;
    this.timeoutMs = o.timeoutMs ?? ALIYUN_REALNAME_TIMEOUT_MS;
  }

  async verify(query: RealNameQuery): Promise<RealNameResult> {
    try {
      return mapAliyunAnswer(await this.post(query));
    } catch (err) {
      const e = err as Error;
      this.o.log.warn({ err: { name: e.name, message: e.message } }, 'real-name verification service failed');
      return { verified: null, method: 'provider', reason: 'unavailable' };
    }
  }

  private async post(query: RealNameQuery): Promise<unknown> {
    let res: Response;
    try {
      res = await this.fetch(this.url, {
        method: 'POST',
        headers: {
          authorization: `APPCODE ${this.o.appCode}`,
          'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
        },
        body: new URLSearchParams({ idcard: query.idNumber, name: query.name }).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const e = err as Error;
      throw new RealNameServiceError(
        e.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : e.message,
      );
    }
    // The market gateway answers quota / AppCode problems with 4xx and an X-Ca-Error-Message header.
    if (!res.ok) {
      throw new RealNameServiceError(
        `HTTP ${res.status} ${res.headers.get('x-ca-error-message') ?? ''}`.trim(),
      );
    }
    try {
      return await res.json();
    } catch {
      throw new RealNameServiceError('answer is not JSON');
    }
  }
}
