import type { FastifyInstance, FastifyRequest } from 'fastify';
import { appError } from '../../lib/errors.ts';
import type { SignedRequest } from './partner-callbacks.ts';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signing.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/** A request header's value (the first when repeated). */
export function headerOf(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** What a partner's signature covers: the two headers and the raw body. */
export function signedRequestOf(req: FastifyRequest): SignedRequest {
  return {
    timestamp: headerOf(req, TIMESTAMP_HEADER),
    signature: headerOf(req, SIGNATURE_HEADER),
    rawBody: req.rawBody ?? '',
  };
}

/** Keeps the raw JSON body on the request (signatures cover it) — for the plugin it is called in only. */
export function keepRawJsonBody(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    req.rawBody = body as string;
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(appError('VALIDATION_FAILED', '请求体不是有效的 JSON'), undefined);
    }
  });
}
