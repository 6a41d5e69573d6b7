import { staffLoginBody, staffLoginData, staffSchema, staffSendCodeBody, sendPhoneVerifyCodeData } from '@lm/shared/schemas/auth';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
    { schema: { tags, body: staffSendCodeBody, response: { 200: envelope(sendPhoneVerifyCodeData) } } },
    async (req) => ok(await staff.sendCode(req.body.phone, clientMeta(req))),
  );

  app.post(
    '/api/crm/admin/login',
    { schema: { tags, summary: 'Staff login: phone + password, or phone + SMS code', body: staffLoginBody, response: { 200: envelope(staffLoginData) } } },
    async (req) => ok(await staff.login(req.body, clientMeta(req))),
  );

  await app.register(async (scoped) => {
    const authed = scoped.withTypeProvider<ZodTypeProvider>();
    authed.addHook('preHandler', requireStaff());

    authed.post('/api/crm/admin/logout', { schema: { tags, security, response: { 200: envelope(z.null()) } } }, async (req) => {
      await staff.logout(req.staffSessionId!);
      return ok(null);
    });

    authed.get('/api/admin/me', { schema: { tags, security, response: { 200: envelope(staffSchema) } } }, async (req) =>
      ok(publicStaff(req.staffMember!)),
    );
  });
};

export default staffRoutes;
