import {
  adminNoticeListData,
  adminNoticeListQuery,
  applicationListData,
  applicationListQuery,
  dataSharingEntrySchema,
  dataSharingListData,
  EXPORTS_PER_DAY,
  logoutAllData,
  noticeIdParams,
  noticeRetryData,
  sessionListData,
  withdrawConsentBody,
} from '@lm/shared/schemas/privacy';
import { endOfShanghaiDay } from '@lm/shared/time';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff, requireUser } from '../../plugins/app/auth.ts';
import { exportFileName } from './rules.ts';

const tags = ['privacy'];
const security = [{ accessToken: [] }];
/** Withdrawals per person per hour (each may queue a notice to a lender). */
export const WITHDRAWALS_PER_HOUR = 30;

/**
 * Issue 6 (docs/privacy.md): the person's sessions, application record, who has their data (and
 * withdrawal per lender), export; the console's list of deletion notices.
 */
const privacyRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { privacy, limiter, adminNotices } = app.services;

  await app.register(async (scoped) => {
    const authed = scoped.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', requireUser);

    authed.get(
      '/api/user/sessions',
      {
        schema: {
          tags,
          security,
          summary: 'The person’s sessions (newest 20), IP masked, device summarised',
          response: { 200: envelope(sessionListData) },
        },
      },
      async (req) => ok({ list: await privacy.sessions(req.user!.id, req.sessionId) }),
    );

    authed.post(
      '/api/user/sessions/logout-all',
      {
        schema: {
          tags,
          security,
          summary: 'Log out everywhere: revokes every session, this one included (log in again)',
          response: { 200: envelope(logoutAllData) },
        },
      },
      async (req) => ok({ revoked: await privacy.logoutAll(req.user!.id) }),
    );

    authed.get(
      '/api/user/applications',
      {
        schema: {
          tags,
          security,
          summary: 'Application record: every match, its offers, consent and delivery (newest first)',
          querystring: applicationListQuery,
          response: { 200: envelope(applicationListData) },
        },
      },
      async (req) => ok(await privacy.applications(req.user!.id, req.query.page, req.query.pageSize)),
    );

    authed.get(
      '/api/user/data-sharing',
      {
        schema: {
          tags,
          security,
          summary: 'Who has my data: each lender that the person consented to, fields, dates, notices',
          response: { 200: envelope(dataSharingListData) },
        },
      },
      async (req) => ok({ list: await privacy.dataSharing(req.user!.id) }),
    );

    authed.post(
      '/api/user/data-sharing/withdraw',
      {
        schema: {
          tags,
          security,
          summary: 'Withdraw consent to one lender: pending deliveries stop, the lender is told',
          body: withdrawConsentBody,
          refusals: [404, 429],
          response: { 200: envelope(dataSharingEntrySchema) },
        },
      },
      async (req) => {
        await limiter.enforce(
          `privacy:withdraw:user:${req.user!.id}`,
          WITHDRAWALS_PER_HOUR,
          { ms: 3600_000 },
          '撤回授权',
        );
        return ok(await privacy.withdraw(req.user!.id, req.body.partnerId, new Date(), req.id));
      },
    );

    authed.get(
      '/api/user/export',
      {
        schema: {
          tags,
          security,
          summary:
            'Download all my data as a JSON file (attachment my-data-YYYYMMDD.json, not the envelope); 10 a day',
          refusals: [429],
        },
        // The answer is the person's data in clear: never log it.
        logLevel: 'warn',
      },
      async (req, reply) => {
        await limiter.enforce(
          `privacy:export:user:${req.user!.id}`,
          EXPORTS_PER_DAY,
          { until: endOfShanghaiDay() },
          '导出个人信息',
        );
        const now = new Date();
        const data = await privacy.exportData(req.user!.id, now);
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${exportFileName(now)}"`)
          .header('cache-control', 'no-store')
          .send(JSON.stringify(data, null, 2));
      },
    );
  });

  app.get(
    '/api/admin/privacy/deletions',
    {
      onRequest: requireStaff(),
      schema: {
        tags: ['admin: privacy'],
        security,
        summary:
          'Deletion notices to lenders after cancellations (kind=withdrawal for withdrawals): status, due date, overdue',
        querystring: adminNoticeListQuery,
        response: { 200: envelope(adminNoticeListData) },
      },
    },
    async (req) => ok(await adminNotices.adminNotices(req.query)),
  );

  app.post(
    '/api/admin/privacy/notices/:id/retry',
    {
      onRequest: requireStaff(['admin', 'operator']),
      schema: {
        tags: ['admin: privacy'],
        security,
        summary: 'Send a notice again: a dead one, or an unconfirmed deletion (reminder)',
        params: noticeIdParams,
        response: { 200: envelope(noticeRetryData) },
      },
    },
    async (req) => {
      const item = await adminNotices.retryNotice(req.params.id, actorOf(req));
      req.log.info({ notice: req.params.id, staff: req.staffMember?.id }, 'partner notice re-queued');
      return ok(item);
    },
  );
};

export default privacyRoutes;
