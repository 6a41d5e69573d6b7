import { channelIdParams } from '@lm/shared/schemas/admin-channels';
import {
  conversionReportIdParams,
  conversionReportItem,
  conversionReportsData,
  conversionReportsQuery,
} from '@lm/shared/schemas/conversion-reports';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';
import { AdReportAdminService } from './reports-admin-service.ts';
import { AdReportRepository } from './reports-repository.ts';

const tags = ['admin: conversions'];
const security = [{ accessToken: [] }];

/**
 * Console: a channel's conversion reports (回传记录, issue 47.6) — what was reported, what waits, what failed
 * with the platform's answer — and the replay of a dead one (issue 47.3). Reading: admin, operator, viewer,
 * and a channel partner for its own channels; replaying: admin and operator, audited.
 */
const conversionReportAdminRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = new AdReportAdminService({ repo: new AdReportRepository(app.database.db) });

  app.get(
    '/api/admin/channels/:id/conversion-reports',
    {
      onRequest: requireStaff(['admin', 'operator', 'viewer', 'channel_partner']),
      schema: {
        tags,
        security,
        summary:
          'A channel’s conversion reports, newest first: count per status, each report’s step, event, value, status, attempts, last error and the platform’s answer (a channel partner: its own channels only)',
        params: channelIdParams,
        querystring: conversionReportsQuery,
        response: { 200: envelope(conversionReportsData) },
      },
    },
    async (req) => ok(await service.list(req.staffMember!, req.params.id, req.query)),
  );

  app.post(
    '/api/admin/conversion-reports/:id/replay',
    {
      onRequest: requireStaff(['admin', 'operator']),
      schema: {
        tags,
        security,
        summary:
          'Send a dead conversion report again: pending, attempts from zero, due now (the last error kept until the next attempt); any other status is refused',
        params: conversionReportIdParams,
        response: { 200: envelope(conversionReportItem) },
      },
    },
    async (req) => ok(await service.replay(actorOf(req), req.params.id)),
  );
};

export default conversionReportAdminRoutes;
