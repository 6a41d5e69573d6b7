import { sandboxCodeParams } from '@lm/shared/schemas/partner';
import { lenderReturnBody, lenderReturnData, sandboxReturnBody } from '@lm/shared/schemas/returns';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { partnerSandboxOn } from '../../config/outbound.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import type { SignedRequest } from '../delivery/partner-callbacks.ts';
import { callAsSandboxLender } from '../delivery/sandbox-call.ts';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../delivery/signing.ts';

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** What a signature covers: the two headers and the raw body. */
const signed = (req: FastifyRequest): SignedRequest => ({
  timestamp: header(req, TIMESTAMP_HEADER),
  signature: header(req, SIGNATURE_HEADER),
  rawBody: req.rawBody ?? '',
});

/**
 * Lead returns from lenders (issue 48.4): `POST /api/partner/returns`, signed exactly like the outcomes call;
 * plus, outside production, the sandbox lender's trigger that signs and makes that call.
 */
const returnRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { partnerCallbacks, returns } = app.services;

  // Signatures cover the raw body: keep it (this plugin only).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    req.rawBody = body as string;
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(appError('VALIDATION_FAILED', '请求体不是有效的 JSON'), undefined);
    }
  });

  app.post(
    '/api/partner/returns',
    {
      schema: {
        tags: ['partners'],
        summary:
          'A lender returns a delivered lead (version 1: duplicate, invalid_phone, out_of_area, fraud, other + reasonText) within its return window, once, up to its monthly return rate; signed like the outcomes call with X-LM-Partner; idempotent on transactionId. Refusals answer 409 with data.reason',
        body: lenderReturnBody,
        refusals: [401, 404, 409],
        response: { 200: envelope(lenderReturnData) },
      },
    },
    async (req) => {
      const partner = await partnerCallbacks.verified(header(req, 'x-lm-partner'), signed(req));
      return ok(await returns.request(partner.id, req.body));
    },
  );

  if (!partnerSandboxOn(app.config)) return;

  app.post(
    '/api/dev/partner-sandbox/:code/returns',
    {
      schema: {
        tags: ['dev: partner sandbox'],
        summary:
          'The sandbox lender returns a lead: signs {leadId, reason, reasonText?} with its secret and calls POST /api/partner/returns as a lender would; answers that call’s answer',
        params: sandboxCodeParams,
        body: sandboxReturnBody,
        refusals: [401, 404, 409],
        response: { 200: envelope(lenderReturnData) },
      },
    },
    async (req) => {
      return callAsSandboxLender<z.infer<typeof lenderReturnData>>(
        app,
        req.params.code,
        '/api/partner/returns',
        'sbr',
        req.body,
      );
    },
  );
};

export default returnRoutes;
