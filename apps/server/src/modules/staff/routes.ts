import {
  createStaffBody,
  knownDeviceHeaders,
  resetStaffPasswordBody,
  resetStaffPasswordData,
  sendPhoneVerifyCodeData,
  staffIdParams,
  staffListData,
  staffListItem,
  staffListQuery,
  staffLoginBody,
  staffLoginData,
  staffSchema,
  staffSendCodeBody,
  staffStatusBody,
  updateStaffBody,
} from '@lm/shared/schemas/auth';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { clientMeta, requireStaff } from '../../plugins/app/auth.ts';
import { publicStaff } from './service.ts';

const tags = ['staff'];
const security = [{ accessToken: [] }];

/** Staff (console) login. The console's own calls live under /api/admin/*. */
const staffRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { staff } = app.services;

  app.post(
    '/api/crm/admin/login/sendPhoneVerifyCode',
    {
      schema: {
        tags,
        body: staffSendCodeBody,
        headers: knownDeviceHeaders,
        refusals: [403, 429],
        response: { 200: envelope(sendPhoneVerifyCodeData) },
      },
    },
    async (req) => ok(await staff.sendCode(req.body.phone, clientMeta(req), req.body.altcha)),
  );

  app.post(
    '/api/crm/admin/login',
    {
      schema: {
        tags,
        summary: 'Staff login: phone + password, or phone + SMS code',
        body: staffLoginBody,
        headers: knownDeviceHeaders,
        refusals: [401, 403, 429],
        response: { 200: envelope(staffLoginData) },
      },
    },
    async (req) => ok(await staff.login(req.body, clientMeta(req))),
  );

  await app.register(async (scoped) => {
    const authed = scoped.withTypeProvider<ZodTypeProvider>();
    // Every console account (a channel partner too) may log out and read who it is; the rest of
    // /api/admin/staff is for admins (route onRequest hooks below).
    authed.addHook('onRequest', requireStaff(['admin', 'operator', 'viewer', 'channel_partner']));

    authed.post(
      '/api/crm/admin/logout',
      { schema: { tags, security, response: { 200: envelope(z.null()) } } },
      async (req) => {
        await staff.logout(req.staffSessionId!);
        return ok(null);
      },
    );

    const adminOnly = requireStaff(['admin']);
    const { staffAccounts: accounts } = app.services;

    authed.get(
      '/api/admin/staff',
      {
        onRequest: adminOnly,
        schema: {
          tags,
          security,
          summary: 'Staff accounts, paged (admin only)',
          querystring: staffListQuery,
          response: { 200: envelope(staffListData) },
        },
      },
      async (req) => {
        const { page, pageSize } = req.query;
        return ok({ page, pageSize, ...(await staff.list(req.query)) });
      },
    );

    authed.post(
      '/api/admin/staff',
      {
        onRequest: adminOnly,
        schema: {
          tags,
          security,
          summary: 'Create a staff or channel-partner account (admin only)',
          body: createStaffBody,
          response: { 200: envelope(staffListItem) },
        },
      },
      async (req) => ok(await accounts.create(actorOf(req), req.body)),
    );

    authed.put(
      '/api/admin/staff/:id',
      {
        onRequest: adminOnly,
        schema: {
          tags,
          security,
          summary: "Change an account's name, role or channels (admin only)",
          params: staffIdParams,
          body: updateStaffBody,
          response: { 200: envelope(staffListItem) },
        },
      },
      async (req) => ok(await accounts.update(actorOf(req), req.params.id, req.body)),
    );

    authed.put(
      '/api/admin/staff/:id/status',
      {
        onRequest: adminOnly,
        schema: {
          tags,
          security,
          summary: 'Enable or disable an account; disabling ends its sessions (admin only)',
          params: staffIdParams,
          body: staffStatusBody,
          response: { 200: envelope(staffListItem) },
        },
      },
      async (req) => ok(await accounts.setStatus(actorOf(req), req.params.id, req.body.status)),
    );

    authed.post(
      '/api/admin/staff/:id/reset-password',
      {
        onRequest: adminOnly,
        schema: {
          tags,
          security,
          summary:
            'Set or generate a password; the account is logged out everywhere and its password locks lift (admin only)',
          params: staffIdParams,
          body: resetStaffPasswordBody,
          response: { 200: envelope(resetStaffPasswordData) },
        },
      },
      async (req) =>
        ok({ password: await accounts.resetPassword(actorOf(req), req.params.id, req.body.password) }),
    );

    authed.get(
      '/api/admin/me',
      { schema: { tags, security, response: { 200: envelope(staffSchema) } } },
      async (req) => ok(publicStaff(req.staffMember!)),
    );
  });
};

export default staffRoutes;
