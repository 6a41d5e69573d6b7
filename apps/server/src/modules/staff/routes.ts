import {
  sendPhoneVerifyCodeData,
  staffLoginBody,
  staffLoginData,
  staffSchema,
  staffSendCodeBody,
} from '@lm/shared/schemas/auth';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
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
    { schema: { tags, body: staffSendCodeBody, response: { 200: envelope(sendPhoneVerifyCodeData) } } },
    async (req) => ok(await staff.sendCode(req.body.phone, clientMeta(req))),
  );

  app.post(
    '/api/crm/admin/login',
    {
      schema: {
        tags,
        summary: 'Staff login: phone + password, or phone + SMS code',
        body: staffLoginBody,
        response: { 200: envelope(staffLoginData) },
      },
    },
    async (req) => ok(await staff.login(req.body, clientMeta(req))),
  );

  await app.register(async (scoped) => {
    const authed = scoped.withTypeProvider<ZodTypeProvider>();
    authed.addHook('preHandler', requireStaff());

    authed.post(
      '/api/crm/admin/logout',
      { schema: { tags, security, response: { 200: envelope(z.null()) } } },
      async (req) => {
        await staff.logout(req.staffSessionId!);
        return ok(null);
      },
    );

    authed.get(
      '/api/admin/staff',
      {
        preHandler: requireStaff(['admin']),
        schema: {
          tags,
          security,
          summary: 'Staff accounts (admin only)',
          response: {
            200: envelope(z.array(staffSchema.extend({ status: z.enum(['active', 'disabled']) }))),
          },
        },
      },
      async () => ok((await staff.list()).map((s) => ({ ...publicStaff(s), status: s.status }))),
    );

    authed.put(
      '/api/admin/staff/:id/status',
      {
        preHandler: requireStaff(['admin']),
        schema: {
          tags,
          security,
          summary: 'Enable or disable a staff account (admin only)',
          params: z.object({ id: z.coerce.number().int().positive('编号格式不正确') }),
          body: z.object({
            status: z.enum(['active', 'disabled'], { error: 'status 只能是 active 或 disabled' }),
          }),
          response: { 200: envelope(z.null()) },
        },
      },
      async (req) => {
        if (req.params.id === req.staffMember!.id) throw appError('FORBIDDEN', '不能修改自己的账号状态');
        await staff.setStatus(req.params.id, req.body.status);
        return ok(null);
      },
    );

    authed.get(
      '/api/admin/me',
      { schema: { tags, security, response: { 200: envelope(staffSchema) } } },
      async (req) => ok(publicStaff(req.staffMember!)),
    );
  });
};

export default staffRoutes;
