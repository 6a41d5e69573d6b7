import { idParam } from '@lm/shared/schemas/admin-catalog';
import { partnerOutcomesData, partnerOutcomesQuery } from '@lm/shared/schemas/partner-outcomes';
import { shanghaiDate } from '@lm/shared/time';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { requireStaff } from '../../plugins/app/auth.ts';
import { resolveOutcomeRange } from './rules.ts';

const tags = ['admin: partners'];
const security = [{ accessToken: [] }];

/**
 * Console: one lender's outcomes (机构反馈, issue 47.6). Read by admin, operator and viewer (amounts included);
 * a channel partner gets 403.
 */
const outcomeAdminRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.services.partnerOutcomes;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff());

    r.get(
      '/api/admin/partners/:id/outcomes',
      {
        schema: {
          tags,
          security,
          summary:
            'A lender’s outcomes: its leads delivered in the range (Shanghai days, default the last 30) by outcome, amounts approved and lent, latency to its reports (median, p90), its latest 50 reports',
          params: idParam,
          querystring: partnerOutcomesQuery,
          refusals: [404],
          response: { 200: envelope(partnerOutcomesData) },
        },
      },
      async (req) => {
        const range = resolveOutcomeRange(req.query, shanghaiDate());
        if (!range.ok) throw appError('VALIDATION_FAILED', range.message);
        return ok(await service.report(req.params.id, range.from, range.to));
      },
    );
  });
};

export default outcomeAdminRoutes;
