import {
  sandboxStatusData,
  sandboxStatusQueryData,
  statusQueryBody,
} from '@lm/shared/schemas/outcome-polling';
import { lenderOutcomeBody, lenderOutcomeData, sandboxOutcomeBody } from '@lm/shared/schemas/outcomes';
import { dupCheckBody, partnerCallbackBody, sandboxCodeParams } from '@lm/shared/schemas/partner';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { partnerSandboxOn } from '../../config/outbound.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { verifySignature } from './partner-callbacks.ts';
import { callAsSandboxLender } from './sandbox-call.ts';
import { headerOf, keepRawJsonBody, signedRequestOf } from './signed-request.ts';

/**
 * Partner-facing calls: match callbacks (link type 5) and joint-login results (8), signed with the
 * partner's secret; plus, outside production, the local partner sandbox.
 */
const deliveryRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { partnerCallbacks, partnerSandbox, privacy, outcomes } = app.services;

  // Signatures cover the raw body: keep it (this plugin only).
  keepRawJsonBody(app);

  app.post(
    '/api/partner/callback',
    {
      schema: {
        tags: ['partners'],
        summary:
          'Partner callback (match callback / joint login / data.deleted): signed like lead delivery, with X-LM-Partner: code',
        body: partnerCallbackBody,
        refusals: [401, 404],
        response: {
          200: envelope(
            z.union([
              z.object({ leadId: z.string(), status: z.string() }),
              z.object({ noticeId: z.string(), status: z.literal('confirmed') }),
            ]),
          ),
        },
      },
    },
    async (req) => {
      const partner = await partnerCallbacks.verified(headerOf(req, 'x-lm-partner'), signedRequestOf(req));
      if ('event' in req.body) {
        const { noticeId } = req.body;
        const found = await privacy.confirmDeletion(partner.id, noticeId);
        if (!found) throw appError('NOT_FOUND', '删除通知不存在');
        return ok({ noticeId, status: 'confirmed' as const });
      }
      await partnerCallbacks.recordLeadCallback(partner, req.body);
      const { leadId } = req.body;
      return ok({ leadId, status: 'recorded' });
    },
  );

  app.post(
    '/api/partner/outcomes',
    {
      schema: {
        tags: ['partners'],
        summary:
          'A lender reports what became of a lead (version 1: received, duplicate, approved with limitFen, declined, funded with amountFen), signed like the callback with X-LM-Partner; idempotent on transactionId',
        body: lenderOutcomeBody,
        refusals: [401, 404, 409],
        response: { 200: envelope(lenderOutcomeData) },
      },
    },
    async (req) => {
      const partner = await partnerCallbacks.verified(headerOf(req, 'x-lm-partner'), signedRequestOf(req));
      return ok(await outcomes.record(partner.id, req.body));
    },
  );

  if (!partnerSandboxOn(app.config)) return;

  const sandboxTags = ['dev: partner sandbox'];

  app.post(
    '/api/dev/partner-sandbox/:code/leads',
    {
      schema: {
        tags: sandboxTags,
        summary:
          'A lender’s lead API: checks the signature, de-duplicates on the idempotency key; takes notices too (a deletion deletes the leads and answers {deleted:true})',
        params: sandboxCodeParams,
        refusals: [401],
        response: {
          200: z.union([
            z.object({ id: z.string(), duplicate: z.boolean() }),
            z.object({ received: z.literal(true) }),
            z.object({ deleted: z.literal(true) }),
          ]),
        },
      },
    },
    async (req, reply) => {
      const partner = await partnerCallbacks.signingPartner(req.params.code);
      if (!partner) throw appError('NOT_FOUND', '未知的合作机构');
      verifySignature(partner.secrets, signedRequestOf(req));
      const key = headerOf(req, 'idempotency-key');
      return reply.send(await partnerSandbox.receive(req.params.code, partner.secret, key, req.body));
    },
  );

  app.post(
    '/api/dev/partner-sandbox/:code/dup-check',
    {
      schema: {
        tags: sandboxTags,
        summary: 'A lender’s duplicate pre-check: {phoneHash} → {exists} from the leads it received',
        params: sandboxCodeParams,
        body: dupCheckBody,
        response: { 200: z.object({ exists: z.boolean() }) },
      },
    },
    async (req) => ({ exists: await partnerSandbox.exists(req.params.code, req.body.phoneHash) }),
  );

  app.post(
    '/api/dev/partner-sandbox/:code/outcomes',
    {
      schema: {
        tags: sandboxTags,
        summary:
          'The sandbox lender reports an outcome: signs {leadId, status, …} with its secret and calls POST /api/partner/outcomes as a lender would; answers that call’s answer',
        params: sandboxCodeParams,
        body: sandboxOutcomeBody,
        refusals: [401, 404, 409],
        response: { 200: envelope(lenderOutcomeData) },
      },
    },
    async (req) => {
      return callAsSandboxLender<z.infer<typeof lenderOutcomeData>>(
        app,
        req.params.code,
        '/api/partner/outcomes',
        'sb',
        req.body,
      );
    },
  );

  app.post(
    '/api/dev/partner-sandbox/:code/statuses',
    {
      schema: {
        tags: sandboxTags,
        summary:
          'Tells the sandbox lender what became of a lead it received, without calling us (issue 47.4): its status query (…/status-query) answers it from now on',
        params: sandboxCodeParams,
        body: sandboxOutcomeBody,
        response: { 200: envelope(sandboxStatusData) },
      },
    },
    async (req) => {
      if (!(await partnerCallbacks.signingPartner(req.params.code)))
        throw appError('NOT_FOUND', '未知的合作机构');
      return ok(await partnerSandbox.setStatus(req.params.code, req.body));
    },
  );

  app.post(
    '/api/dev/partner-sandbox/:code/status-query',
    {
      schema: {
        tags: sandboxTags,
        summary:
          'A lender’s status query (issue 47.4): checks the signature, answers {results:[{leadId, status, …}]} with what it was told (…/statuses) about each lead asked for',
        params: sandboxCodeParams,
        body: statusQueryBody,
        refusals: [401],
        response: { 200: sandboxStatusQueryData },
      },
    },
    async (req, reply) => {
      const partner = await partnerCallbacks.signingPartner(req.params.code);
      if (!partner) throw appError('NOT_FOUND', '未知的合作机构');
      verifySignature(partner.secrets, signedRequestOf(req));
      return reply.send(await partnerSandbox.statuses(req.params.code, req.body.leadIds));
    },
  );

  app.get(
    '/api/dev/partner-sandbox/:code/leads',
    {
      schema: {
        tags: sandboxTags,
        summary: 'What the sandbox lender received (latest 50)',
        params: sandboxCodeParams,
        response: {
          200: envelope(
            z.array(
              z.object({
                /** The lead's id as the lender knows it (its Idempotency-Key), for …/outcomes. */
                leadId: z.string(),
                idempotencyKey: z.string(),
                receivedAt: z.string(),
                fieldNames: z.array(z.string()),
                autoForm: z.boolean(),
              }),
            ),
          ),
        },
      },
    },
    async (req) => ok(await partnerSandbox.received(req.params.code)),
  );
};

export default deliveryRoutes;
