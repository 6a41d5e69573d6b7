import { sandboxCodeParams } from '@lm/shared/schemas/partner';
import { lenderReturnBody, lenderReturnData, sandboxReturnBody } from '@lm/shared/schemas/returns';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { partnerSandboxOn } from '../../config/outbound.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { callAsSandboxLender } from '../delivery/sandbox-call.ts';
import { headerOf, keepRawJsonBody, signedRequestOf } from '../delivery/signed-request.ts';

/**
 * Lead returns from lenders (issue 48.4): `POST /api/partner/returns`, signed exactly like the outcomes call;
 * plus, outside production, the sandbox lender's trigger that signs and makes that call.
 */
const returnRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { partnerCallbacks, returns } = app.services;

  // Signatures cover the raw body: keep it (this plugin only).
  keepRawJsonBody(app);

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
      const partner = await partnerCallbacks.verified(headerOf(req, 'x-lm-partner'), signedRequestOf(req));
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
