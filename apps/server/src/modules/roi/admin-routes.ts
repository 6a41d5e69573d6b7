import { roiData, roiQuery } from '@lm/shared/schemas/roi';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';

const tags = ['console: roi'];
const security = [{ accessToken: [] }];

/**
 * Console: ROI per channel, day or skin (issue 48.6). Admin and operator read everything, a viewer the volumes
 * only (no amount field at all); a channel partner is refused (403) — its own channel's money is on its
 * statement, never beside a lender's revenue.
 */
const roiAdminRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.services.roi;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff());

    r.get(
      '/api/admin/roi',
      {
        schema: {
          tags,
          security,
          summary:
            'ROI of the Shanghai days from..to per channel, day or skin. Money from the ledger by event day (not booking month): revenueFen = lead_revenue entries (by their channel code), returnedFen = −return entries, costFen = channel_cost entries + adjustments on channels; marginFen = revenue − returned − cost; roiBps = margin × 10000 / cost (half away from zero; null without cost); costPerLeadFen = cost / leads (null without leads). Volumes of the period: counted clicks, registrations, leads created, leads first approved / funded that day, return entries. By skin a channel-day’s cost is split over its clicks’ skins (largest remainder), each row has revenuePerVisitorFen and abTests gives the A/B page’s significance. A viewer gets no amounts; a channel partner is refused',
          querystring: roiQuery,
          response: { 200: envelope(roiData) },
        },
      },
      async (req) => ok(await service.roi(actorOf(req), req.query)),
    );
  });
};

export default roiAdminRoutes;
