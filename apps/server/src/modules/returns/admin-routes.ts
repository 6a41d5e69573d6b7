import { idParam } from '@lm/shared/schemas/admin-catalog';
import {
  adminReturnItem,
  adminReturnList,
  adminReturnsQuery,
  returnReviewBody,
} from '@lm/shared/schemas/returns';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';

const tags = ['admin: returns'];
const security = [{ accessToken: [] }];

/**
 * Console: lead returns (issue 48.4). Reading: admin, operator, viewer (a viewer without amounts); accepting or
 * rejecting a disputed return: admin and operator, audited. A channel partner is refused.
 */
const returnAdminRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.services.returns;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff());

    r.get(
      '/api/admin/returns',
      {
        schema: {
          tags,
          security,
          summary:
            'Lead returns, newest first, by status and lender: the lead, lender, product, reason, status, why it waits for staff, the review and the amount reversed (absent for a viewer)',
          querystring: adminReturnsQuery,
          response: { 200: envelope(adminReturnList) },
        },
      },
      async (req) => ok(await service.list(actorOf(req), req.query)),
    );

    for (const [action, decision] of [
      ['accept', 'accepted'],
      ['reject', 'rejected'],
    ] as const) {
      r.post(
        `/api/admin/returns/:id/${action}`,
        {
          onRequest: requireStaff(['admin', 'operator']),
          schema: {
            tags,
            security,
            summary:
              action === 'accept'
                ? 'Accept a disputed return (admin, operator): the lead’s revenue is reversed in the ledger; audited'
                : 'Reject a disputed return (admin, operator): nothing is reversed; audited',
            params: idParam,
            body: returnReviewBody,
            refusals: [404, 409],
            response: { 200: envelope(adminReturnItem) },
          },
        },
        async (req) => ok(await service.review(actorOf(req), req.params.id, decision, req.body.note)),
      );
    }
  });
};

export default returnAdminRoutes;
