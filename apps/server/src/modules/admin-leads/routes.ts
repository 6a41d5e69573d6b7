import { auditLogData, auditLogQuery } from '@lm/shared/schemas/admin';
import {
  adminAdReportingBody,
  adminAdReportingData,
  adminLeadDetailSchema,
  adminLeadListData,
  adminLeadListQuery,
  adminRevealBody,
  adminRevealData,
  adminUserDetailSchema,
  adminUserListData,
  adminUserListQuery,
  auditFacetsData,
  deliverySummaryData,
  discardLeadBody,
  leadIdParams,
  retryDeadBody,
  retryDeadData,
  userIdParams,
} from '@lm/shared/schemas/admin-leads';
import { PERSONAL_DATA_ROLES } from '@lm/shared/schemas/auth';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';
import { seesAttemptDetails } from './lead-rows.ts';

const security = [{ accessToken: [] }];
/** Reveals of personal data per staff member per hour. */
export const REVEALS_PER_HOUR = 30;
const CHANGERS = ['admin', 'operator'] as const;

/**
 * Issue 7 part 3: people, leads and deliveries in the console, and the audit log. Lists are masked;
 * reveals and every change are audit-logged in the transaction that makes them.
 */
const adminLeadsRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { limiter, adminLeads: service, adminPeople: people, auditLog } = app.services;
  const readers = requireStaff();
  const changers = requireStaff(CHANGERS);

  app.get(
    '/api/admin/users',
    {
      onRequest: readers,
      schema: {
        tags: ['admin: users'],
        security,
        summary:
          'People: search by full phone (blind index), channel, status, form status, sign-up dates; masked',
        querystring: adminUserListQuery,
        response: { 200: envelope(adminUserListData) },
      },
    },
    async (req) => ok(await people.listUsers(req.query)),
  );

  app.get(
    '/api/admin/users/:id',
    {
      onRequest: readers,
      schema: {
        tags: ['admin: users'],
        security,
        summary:
          'One person: masked profile, match runs → offers → consents → leads (attempts) → notices, sessions',
        params: userIdParams,
        response: { 200: envelope(adminUserDetailSchema) },
      },
    },
    async (req) =>
      ok(await people.userDetail(req.params.id, { attemptDetails: seesAttemptDetails(actorOf(req)) })),
  );

  app.post(
    '/api/admin/users/:id/reveal',
    {
      onRequest: requireStaff(PERSONAL_DATA_ROLES),
      // The answer holds personal data in clear: never log it.
      logLevel: 'warn',
      schema: {
        tags: ['admin: users'],
        security,
        summary: `Reveal one field (mobile, realName, identity, contacts) with a reason; audit-logged without the value; ${REVEALS_PER_HOUR} an hour`,
        params: userIdParams,
        body: adminRevealBody,
        refusals: [429],
        response: { 200: envelope(adminRevealData) },
      },
    },
    async (req, reply) => {
      await limiter.enforce(
        `admin:reveal:staff:${req.staffMember!.id}`,
        REVEALS_PER_HOUR,
        { ms: 3600_000 },
        '查看个人信息',
      );
      const data = await people.reveal(actorOf(req), req.params.id, req.body.field, req.body.reason);
      reply.header('cache-control', 'no-store');
      return ok(data);
    },
  );

  app.put(
    '/api/admin/users/:id/ad-reporting',
    {
      onRequest: changers,
      schema: {
        tags: ['admin: users'],
        security,
        summary:
          "Record (objected: true) or withdraw (false) a person's objection to conversion reporting (隐私政策 第六条); objecting drops their pending reports and unlinks their clicks; audit-logged",
        params: userIdParams,
        body: adminAdReportingBody,
        response: { 200: envelope(adminAdReportingData) },
      },
    },
    async (req) => ok(await people.setAdReporting(actorOf(req), req.params.id, req.body.objected)),
  );

  app.get(
    '/api/admin/leads',
    {
      onRequest: readers,
      schema: {
        tags: ['admin: leads'],
        security,
        summary:
          'Leads: by partner, product, person, status, channel, dates; sortable createdAt/attempts/nextAttemptAt',
        querystring: adminLeadListQuery,
        response: { 200: envelope(adminLeadListData) },
      },
    },
    async (req) => ok(await service.listLeads(req.query)),
  );

  // Digits only: `…/leads/retry-dead` is another path (POST), whose other methods answer 405, not this route.
  app.get(
    '/api/admin/leads/:id(^\\d+$)',
    {
      onRequest: readers,
      schema: {
        tags: ['admin: leads'],
        security,
        summary:
          'One lead with its consent and every delivery attempt (HTTP status, outcome, duration; why it failed: admin only)',
        params: leadIdParams,
        response: { 200: envelope(adminLeadDetailSchema) },
      },
    },
    async (req) =>
      ok(await service.leadDetail(req.params.id, { attemptDetails: seesAttemptDetails(actorOf(req)) })),
  );

  app.post(
    '/api/admin/leads/:id/retry',
    {
      onRequest: changers,
      schema: {
        tags: ['admin: leads'],
        security,
        summary:
          'Send a dead letter again: pending, attempts reset, due now (not after a withdrawal or cancellation)',
        params: leadIdParams,
        response: { 200: envelope(adminLeadDetailSchema) },
      },
    },
    async (req) => ok(await service.retry(actorOf(req), req.params.id)),
  );

  app.post(
    '/api/admin/leads/:id/discard',
    {
      onRequest: changers,
      schema: {
        tags: ['admin: leads'],
        security,
        summary: 'Give up a dead letter for good (discarded, never sent), with a reason',
        params: leadIdParams,
        body: discardLeadBody,
        response: { 200: envelope(adminLeadDetailSchema) },
      },
    },
    async (req) => ok(await service.discard(actorOf(req), req.params.id, req.body.reason)),
  );

  app.post(
    '/api/admin/leads/retry-dead',
    {
      onRequest: changers,
      schema: {
        tags: ['admin: leads'],
        security,
        summary:
          'Send every dead letter of one partner again (skips withdrawn consents and cancelled accounts)',
        body: retryDeadBody,
        refusals: [404],
        response: { 200: envelope(retryDeadData) },
      },
    },
    async (req) => ok(await service.retryDead(actorOf(req), req.body.partnerId)),
  );

  app.get(
    '/api/admin/deliveries/summary',
    {
      onRequest: readers,
      schema: {
        tags: ['admin: leads'],
        security,
        summary:
          'Delivery queues per partner: pending, due now, leased, delivered today, dead, discarded, awaiting callback, oldest pending, last attempt',
        response: { 200: envelope(deliverySummaryData) },
      },
    },
    async () => ok(await service.summary()),
  );

  app.get(
    '/api/admin/audit-log',
    {
      onRequest: readers,
      schema: {
        tags: ['admin: audit'],
        security,
        summary: 'Audit log of every console change and reveal: who, what, before and after, reason, when',
        querystring: auditLogQuery,
        response: { 200: envelope(auditLogData) },
      },
    },
    async (req) => ok(await auditLog.list(req.query)),
  );

  app.get(
    '/api/admin/audit-log/facets',
    {
      onRequest: readers,
      schema: {
        tags: ['admin: audit'],
        security,
        summary: 'Values for the audit-log filters: staff who acted, actions, entities',
        response: { 200: envelope(auditFacetsData) },
      },
    },
    async () => ok(await auditLog.facets()),
  );
};

export default adminLeadsRoutes;
