import { idParam } from '@lm/shared/schemas/admin-catalog';
import { channelCostBody, channelCostsData, channelCostsQuery } from '@lm/shared/schemas/channel-costs';
import {
  spendFileBody,
  spendImportResult,
  spendImportsData,
  spendPreviewData,
} from '@lm/shared/schemas/spend-imports';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';

const security = [{ accessToken: [] }];

/**
 * Console: what a channel costs and the spend imported from ad platforms (issue 48.2, ADR 073). Reading: admin,
 * operator, viewer (a viewer without any amount); a cost row: admin only; importing spend: admin and operator
 * (audited). A channel partner is refused all of them.
 */
const channelCostsAdminRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const costs = app.services.channelCosts;
  const spend = app.services.spendImports;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff());

    r.get(
      '/api/admin/channels/:id/costs',
      {
        schema: {
          tags: ['admin: channels'],
          security,
          summary:
            'A channel’s cost rows (CPC / CPA / revenue share / imported spend), the latest effective day first, with the one in force on `at` (default today); a viewer gets no amounts',
          params: idParam,
          querystring: channelCostsQuery,
          response: { 200: envelope(channelCostsData) },
        },
      },
      async (req) => ok(await costs.list(actorOf(req), req.params.id, req.query.at)),
    );

    r.post(
      '/api/admin/channels/:id/costs',
      {
        onRequest: requireStaff(['admin']),
        schema: {
          tags: ['admin: channels'],
          security,
          summary:
            'Set a channel’s cost model from a Shanghai day on (today or later; one row per channel and day) — admin only',
          params: idParam,
          body: channelCostBody,
          response: { 200: envelope(channelCostsData) },
        },
      },
      async (req) => ok(await costs.add(actorOf(req), req.params.id, req.body)),
    );

    r.get(
      '/api/admin/spend-imports',
      {
        schema: {
          tags: ['admin: spend'],
          security,
          summary: 'Spend imports, the latest first (who, when, rows, total; a viewer gets no totals)',
          response: { 200: envelope(spendImportsData) },
        },
      },
      async (req) => ok(await spend.list(actorOf(req))),
    );

    r.post(
      '/api/admin/spend-imports/preview',
      {
        onRequest: requireStaff(['admin', 'operator']),
        schema: {
          tags: ['admin: spend'],
          security,
          summary:
            'Read an ad platform’s daily spend CSV and judge each row (accepted, or rejected with its reason); nothing is written',
          body: spendFileBody,
          response: { 200: envelope(spendPreviewData) },
        },
      },
      async (req) => ok(await spend.preview(actorOf(req), req.body)),
    );

    r.post(
      '/api/admin/spend-imports',
      {
        onRequest: requireStaff(['admin', 'operator']),
        schema: {
          tags: ['admin: spend'],
          security,
          summary:
            'Import a spend CSV: the accepted rows booked as channel cost (the difference to what is booked per channel-day); the same file again books nothing (`repeated`)',
          body: spendFileBody,
          response: { 200: envelope(spendImportResult) },
        },
      },
      async (req) => ok(await spend.commit(actorOf(req), req.body)),
    );
  });
};

export default channelCostsAdminRoutes;
