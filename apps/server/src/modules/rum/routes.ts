import type { StaffRole } from '@lm/shared/schemas/auth';
import {
  VITAL_THRESHOLDS,
  vitalsAccepted,
  vitalsBody,
  webVitalsData,
  webVitalsQuery,
} from '@lm/shared/schemas/rum';
import { shanghaiDate } from '@lm/shared/time';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { clientMeta, requireStaff } from '../../plugins/app/auth.ts';
import { resolveVitalsRange } from './rules.ts';

/** Staff read performance figures; channel partners do not. */
const RUM_READERS: readonly StaffRole[] = ['admin', 'operator', 'viewer'];

/**
 * Issue 8: real-user monitoring. The H5 posts Core Web Vitals and chunk-load failures in batches
 * (sendBeacon, text/plain JSON); the console reads p50/p75/p95 per route, channel or skin. See docs/rum.md.
 */
const rumRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { rum } = app.services;

  app.post(
    '/api/report/vitals',
    {
      schema: {
        tags: ['reporting'],
        summary:
          'A batch (≤ 50) of Web Vitals / chunk-load failures measured in the H5 (beacon, text/plain JSON)',
        body: vitalsBody,
        refusals: [429],
        response: { 200: envelope(vitalsAccepted) },
      },
    },
    async (req) => {
      const meta = clientMeta(req);
      return ok(
        await rum.record(req.body, { ip: meta.ip, fingerprint: meta.fingerprint ?? req.body.fingerprint }),
      );
    },
  );

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff(RUM_READERS));
    r.get(
      '/api/admin/web-vitals',
      {
        schema: {
          tags: ['console: web vitals'],
          security: [{ accessToken: [] }],
          summary: 'Web Vitals p75 (and count, p50, p95) per route, channel or skin and metric, with ratings',
          querystring: webVitalsQuery,
          response: { 200: envelope(webVitalsData) },
        },
      },
      async (req) => {
        const q = req.query;
        const range = resolveVitalsRange(q, shanghaiDate());
        if (!range.ok) throw appError('VALIDATION_FAILED', range.message);
        const rows = await rum.percentiles({
          from: range.from,
          to: range.to,
          groupBy: q.groupBy,
          metric: q.metric,
          channelCode: q.channelCode,
          skin: q.skin,
          route: q.route,
        });
        return ok({ from: range.from, to: range.to, groupBy: q.groupBy, thresholds: VITAL_THRESHOLDS, rows });
      },
    );
  });
};

export default rumRoutes;
