import { reportEventBody, reportEventData } from '@lm/shared/schemas/channel';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { clientMeta } from '../../plugins/app/auth.ts';

const tags = ['reporting'];

/** The person behind an accessToken header, if any; an event never fails because of its token. */
async function optionalUserId(req: FastifyRequest): Promise<number | null> {
  const raw = req.headers.accesstoken;
  const token = Array.isArray(raw) ? raw[0] : raw;
  if (!token) return null;
  try {
    return (await req.server.services.auth.authenticate(token)).user.id;
  } catch {
    return null;
  }
}

/** Spec §7 "Reporting": the analytics funnel (spec §1). */
const analyticsRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { analytics } = app.services;

  app.post(
    '/api/report/event',
    {
      schema: {
        tags,
        summary: 'Record a funnel step, once per session and step',
        body: reportEventBody,
        refusals: [429],
        response: { 200: envelope(reportEventData) },
      },
    },
    async (req) => {
      const meta = clientMeta(req);
      const userId = await optionalUserId(req);
      const recorded = await analytics.recordEvent(req.body, {
        ip: meta.ip,
        userId,
        fingerprint: meta.fingerprint,
      });
      // The ad click the visit came from (ADR 069): kept with the visit; the event stands without it.
      await app.services.adClicks
        .seen(req.headers.track_report, req.body.adChannelCode ?? meta.channelCode)
        .catch((err: unknown) => req.log.error({ err }, 'ad click not kept'));
      return ok(recorded);
    },
  );
};

export default analyticsRoutes;
