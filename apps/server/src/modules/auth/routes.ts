import {
  cancellationBody,
  checkMobileLoginBody,
  checkMobileLoginData,
  encryptionMobileData,
  getEncryptionMobileQuery,
  getUserLoginVOQuery,
  knownDeviceHeaders,
  loginBody,
  loginData,
  loginUserInfoData,
  sendPhoneVerifyCodeBody,
  sendPhoneVerifyCodeData,
  userDetailData,
} from '@lm/shared/schemas/auth';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { clientMeta, requireUser } from '../../plugins/app/auth.ts';
import { reportStep } from '../conversions/report-step.ts';
import type { AuthUser } from './service.ts';

const tags = ['login and account'];
const security = [{ accessToken: [] }];

function loginUserInfo(user: AuthUser) {
  return {
    uid: user.id,
    mobile: user.mobileMasked,
    adChannelCode: user.adChannelCode,
    adChannelId: user.adChannelId,
    userInfoStatus: user.userInfoStatus,
    coverStatus: user.coverStatus,
    createdAt: user.createdAt.toISOString(),
  };
}

/**
 * Credits the person with the ad click their page carries in its `track_report` header (ADR 069). The login
 * has happened: a failure here is logged, never answered.
 */
async function creditAdClick(req: FastifyRequest, userId: number, channelCode: string | undefined) {
  try {
    await req.server.services.adClicks.login(req.headers.track_report, { userId, channelCode });
  } catch (err) {
    req.log.error({ err }, 'ad click not credited');
  }
}

/** Spec §7 "Login and account". */
const authRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { auth } = app.services;

  app.post(
    '/api/login/sendPhoneVerifyCode',
    {
      schema: {
        tags,
        summary: 'Send a login SMS code',
        body: sendPhoneVerifyCodeBody,
        headers: knownDeviceHeaders,
        refusals: [429],
        response: { 200: envelope(sendPhoneVerifyCodeData) },
      },
    },
    async (req) => ok(await auth.sendLoginCode(req.body, clientMeta(req))),
  );

  app.post(
    '/api/login',
    {
      schema: {
        tags,
        summary: 'Log in with phone + SMS code',
        body: loginBody,
        headers: knownDeviceHeaders,
        refusals: [429],
        response: { 200: envelope(loginData) },
      },
    },
    async (req) => {
      const meta = clientMeta(req);
      const { created, ...result } = await auth.login(req.body, meta);
      await creditAdClick(req, result.loginUser.uid, req.body.adChannelCode ?? meta.channelCode);
      // 注册: the login of a new person (issue 47.3).
      if (created)
        await reportStep(req, { userId: result.loginUser.uid, step: 'register', reference: req.id });
      return ok(result);
    },
  );

  app.get(
    '/api/getEncryptionMobile',
    {
      schema: {
        tags,
        summary: 'Decrypt a partner-encrypted phone into a masked phone and a short-lived ticket',
        querystring: getEncryptionMobileQuery,
        refusals: [429],
        response: { 200: envelope(encryptionMobileData) },
      },
    },
    async (req) => {
      await auth.limitLookups(req.ip);
      return ok(auth.encryptionMobile(req.query));
    },
  );

  app.post(
    '/api/upStreamUnionLogin/checkMobileLogin',
    {
      schema: {
        tags,
        summary: 'Whether the phone of an encrypted link already has an account',
        body: checkMobileLoginBody,
        refusals: [429],
        response: { 200: envelope(checkMobileLoginData) },
      },
    },
    async (req) => {
      await auth.limitLookups(req.ip);
      return ok({ registered: await auth.isRegistered(req.body) });
    },
  );

  // Everything below needs a valid accessToken.
  await app.register(async (scoped) => {
    const authed = scoped.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', requireUser);

    authed.post(
      '/api/logout',
      { schema: { tags, security, response: { 200: envelope(z.null()) } } },
      async (req) => {
        await auth.logout(req.sessionId!);
        return ok(null);
      },
    );

    authed.get(
      '/api/getLoginUserInfo',
      { schema: { tags, security, response: { 200: envelope(loginUserInfoData) } } },
      async (req) => ok(loginUserInfo(req.user!)),
    );

    authed.get(
      '/api/getUserLoginVO',
      {
        schema: {
          tags,
          security,
          querystring: getUserLoginVOQuery,
          refusals: [403],
          response: { 200: envelope(loginUserInfoData) },
        },
      },
      async (req) => {
        // A person may read only their own record.
        if (req.query.uid !== req.user!.id) throw appError('FORBIDDEN');
        return ok(loginUserInfo(req.user!));
      },
    );

    authed.get(
      '/api/userApi/getUserDetailVO',
      { schema: { tags, security, response: { 200: envelope(userDetailData) } } },
      async (req) =>
        ok({ uid: req.user!.id, mobile: req.user!.mobileMasked, adChannelId: req.user!.adChannelId }),
    );

    authed.post(
      '/api/cancellation/sendPhoneVerifyCode',
      {
        schema: {
          tags,
          security,
          summary: 'Send the SMS code that confirms cancellation',
          refusals: [429],
          response: { 200: envelope(sendPhoneVerifyCodeData) },
        },
      },
      async (req) => ok(await auth.sendCancellationCode(req.user!, clientMeta(req))),
    );

    authed.post(
      '/api/cancellation',
      {
        schema: {
          tags,
          security,
          summary: 'Cancel the account: personal data erased, sessions revoked',
          body: cancellationBody.optional(),
          refusals: [429],
          response: { 200: envelope(z.null()) },
        },
      },
      async (req) => {
        await auth.cancel(req.user!, req.body?.code, req.id, clientMeta(req).knownDevice);
        return ok(null);
      },
    );
  });
};

export default authRoutes;
