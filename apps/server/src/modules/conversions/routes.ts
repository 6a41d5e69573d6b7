import { adClickData, devAdClicksQuery } from '@lm/shared/schemas/conversions';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../lib/envelope.ts';

/** Conversions (issue 47). For now the dev view of the ad clicks the server keeps (ADR 069). */
const conversionRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();

  // Dev-only helpers: absent when NODE_ENV=production.
  if (app.config.NODE_ENV === 'production') return;

  app.get(
    '/api/dev/ad-clicks',
    {
      schema: {
        tags: ['dev'],
        summary: 'The ad clicks kept under a click id, and the person each is credited to',
        querystring: devAdClicksQuery,
        response: { 200: envelope(z.array(adClickData)) },
      },
    },
    async (req) => {
      const rows = await app.services.adClicks.find(req.query.clickId, req.query.platform);
      return ok(
        rows.map((r) => ({
          platform: r.platform as z.infer<typeof adClickData>['platform'],
          clickId: r.clickId,
          channelCode: r.channelCode,
          params: r.params,
          firstSeenAt: r.firstSeenAt.toISOString(),
          lastSeenAt: r.lastSeenAt.toISOString(),
          userId: r.userId,
          attributedAt: r.attributedAt?.toISOString() ?? null,
        })),
      );
    },
  );
};

export default conversionRoutes;
