import type { StaffRole } from '@lm/shared/schemas/auth';
import {
  adjustmentBody,
  bookedEntryData,
  monthCloseData,
  monthParams,
  payoutBody,
  statementDetailData,
  statementParams,
  statementsData,
  statementsQuery,
} from '@lm/shared/schemas/settlement';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';
import type { Reader } from './service.ts';

const tags = ['admin: settlement'];
const security = [{ accessToken: [] }];
/** Statements are read by staff (a viewer without amounts) and by a channel partner (its own channels). */
const READERS: readonly StaffRole[] = ['admin', 'operator', 'viewer', 'channel_partner'];

function readerOf(req: FastifyRequest): Reader {
  return { actor: actorOf(req), channelCodes: req.staffMember?.channelCodes ?? [] };
}

/**
 * Console: monthly statements, the month close, adjustments and payouts (issue 48.5 and 48.3, ADR 073).
 * Reading: admin, operator, viewer (no amounts), channel partner (its channels only, never a lender); closing,
 * adjusting, paying: admin only, audited.
 */
const settlementAdminRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.services.settlement;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff(READERS));

    r.get(
      '/api/admin/settlement/statements',
      {
        schema: {
          tags,
          security,
          summary:
            'The statements of a Shanghai month: per lender and per channel the counts, the amounts of its ledger entries booked in the month and the net; open or closed. A viewer gets no amounts; a channel partner its own channels only',
          querystring: statementsQuery,
          response: { 200: envelope(statementsData) },
        },
      },
      async (req) => ok(await service.statements(readerOf(req), req.query.month)),
    );

    r.get(
      '/api/admin/settlement/statements.csv',
      {
        schema: {
          tags,
          security,
          summary:
            'The statements of a month as CSV (UTF-8 with BOM, amounts in yuan; a viewer’s without amount columns; a channel partner’s with its channels only) — not the envelope',
          querystring: statementsQuery,
        },
      },
      async (req, reply) => {
        const month = req.query.month;
        const csv = await service.csv(readerOf(req), month);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="statements-${month}.csv"; filename*=UTF-8''${encodeURIComponent(`对账单-${month}.csv`)}`,
          )
          .header('cache-control', 'no-store')
          .send(csv);
      },
    );

    r.get(
      '/api/admin/settlement/statements/:partyType/:code',
      {
        schema: {
          tags,
          security,
          summary:
            'One lender’s or channel’s statement of a month with its entries (late: booked here because its own month was closed). A channel partner: its own channels only',
          params: statementParams,
          querystring: statementsQuery,
          response: { 200: envelope(statementDetailData) },
        },
      },
      async (req) =>
        ok(await service.statement(readerOf(req), req.params.partyType, req.params.code, req.query.month)),
    );

    r.post(
      '/api/admin/settlement/months/:month/close',
      {
        onRequest: requireStaff(['admin']),
        schema: {
          tags,
          security,
          summary:
            'Close a Shanghai month that has ended (admin): its statements are frozen; later events of it are booked in the next open month. Twice → 409',
          params: monthParams,
          refusals: [409],
          response: { 200: envelope(monthCloseData) },
        },
      },
      async (req) => ok(await service.close(actorOf(req), req.params.month)),
    );

    r.post(
      '/api/admin/settlement/adjustments',
      {
        onRequest: requireStaff(['admin']),
        schema: {
          tags,
          security,
          summary:
            'A manual adjustment (admin): a signed amount with its reason on a lender’s or channel’s account, in an open month (default the current one)',
          body: adjustmentBody,
          refusals: [404, 409],
          response: { 200: envelope(bookedEntryData) },
        },
      },
      async (req) => ok(await service.adjust(actorOf(req), req.body)),
    );

    r.post(
      '/api/admin/settlement/payouts',
      {
        onRequest: requireStaff(['admin']),
        schema: {
          tags,
          security,
          summary:
            'A payout (admin): a lender’s payment to us or ours to a channel, booked now as −amount on its account',
          body: payoutBody,
          refusals: [404],
          response: { 200: envelope(bookedEntryData) },
        },
      },
      async (req) => ok(await service.payout(actorOf(req), req.body)),
    );
  });
};

export default settlementAdminRoutes;
