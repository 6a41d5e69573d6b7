import { FaceStatus } from '@lm/shared/credit-info';
import { withVerifiedIdentity } from '@lm/shared/identity';
import { applicationFormBody, applicationSaveBody } from '@lm/shared/schemas/application';
import { directMatchBody, matchKeyParams, matchResultSchema } from '@lm/shared/schemas/matching';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/app/auth.ts';
import { CRM_LINK_TYPE } from '../applications/rules.ts';
import { reportStep } from '../conversions/report-step.ts';
import { formValidationError } from '../identity/verified.ts';
import { runOfMatchKey } from './service.ts';

const tags = ['user info'];
const security = [{ accessToken: [] }];

/** Matches (form saves and re-matches) per person per hour. */
export const MATCHES_PER_USER_PER_HOUR = 30;

/** Re-match types that mean "second match" (spec §3 re-match type 3, match type 6). */
export const SECOND_MATCH_TYPES = new Set([3, 6]);

/** Spec §7: POST /api/user/info/save and POST /api/user/info/direct/match. */
const matchingRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { matching, limiter, channels, applications: drafts, identities, verification } = app.services;
  app.addHook('onRequest', requireUser);

  const limit = async (req: FastifyRequest) => {
    await limiter.enforce(`match:user:${req.user!.id}`, MATCHES_PER_USER_PER_HOUR, { ms: 3600_000 }, '匹配');
  };

  /**
   * Spec §5: face pass is required when credit status is open — the person's own channel or the
   * form's channel is a CRM (link type 3) channel.
   */
  const requireFaceWhenCredit = async (req: FastifyRequest, formChannel: string | undefined) => {
    const codes = [...new Set([req.user!.adChannelCode, formChannel].filter((c): c is string => Boolean(c)))];
    const found = await Promise.all(codes.map((c) => channels.find(c)));
    if (!found.some((ch) => ch?.linkType === CRM_LINK_TYPE)) return;
    if ((await verification.faceStatus(req.user!.id)) !== FaceStatus.PASSED)
      throw appError('FACE_NOT_PASSED');
  };

  app.post(
    '/api/user/info/save',
    {
      schema: {
        tags,
        security,
        summary:
          'Submit the whole application form: stored as the draft, then matched (answers the match result). ' +
          'After a passed face verification realName/identity may be left out (the verified ones are used); ' +
          'another name or number answers 400 实名信息须与已认证的身份一致 and nothing is stored',
        body: applicationSaveBody,
        refusals: [409, 429],
        response: { 200: envelope(matchResultSchema) },
      },
    },
    async (req) => {
      await limit(req);
      const { autoForm, ...submitted } = req.body;
      // Issue 16.1: never another identity than the verified one; without a name and number, the
      // verified ones (required when there are none).
      const verified = await identities.check(req.user!.id, submitted);
      const complete = applicationFormBody.safeParse(withVerifiedIdentity(verified, submitted));
      if (!complete.success) throw formValidationError(complete.error);
      const form = complete.data;
      // The form is stored first: nothing the person submitted is lost if matching fails.
      await drafts.tempSave(req.user!.id, form);
      // 表单提交 (issue 47.3): the form is in; what matching makes of it is another step.
      await reportStep(req, { userId: req.user!.id, step: 'form', reference: req.id });
      await requireFaceWhenCredit(req, form.adChannelCode);
      const result = await matching.run(req.user!, form, {
        source: autoForm ? 'auto' : 'form',
        matchType: 1,
        directMatchType: null,
        adChannelCode: form.adChannelCode,
        secondMatch: false,
        log: req.log,
        requestId: req.id,
      });
      return ok(result);
    },
  );

  app.post(
    '/api/user/info/direct/match',
    {
      schema: {
        tags,
        security,
        summary:
          'Re-match from the stored form: directMatchType 0 old user (releases open offers), 3 or 6 second ' +
          'match (keeps them, offers other lenders)',
        body: directMatchBody,
        refusals: [409, 429],
        response: { 200: envelope(matchResultSchema) },
      },
    },
    async (req) => {
      const parsed = applicationFormBody.safeParse(await drafts.draft(req.user!.id));
      if (!parsed.success) throw appError('FORM_NOT_SUBMITTED');
      // A draft stored before the identity was verified may name someone else: refused (issue 16.1).
      await identities.check(req.user!.id, parsed.data);
      await requireFaceWhenCredit(req, req.body.adChannelCode);
      await limit(req);
      const second = SECOND_MATCH_TYPES.has(req.body.directMatchType);
      const result = await matching.run(req.user!, parsed.data, {
        source: 'direct',
        matchType: second ? 6 : 1,
        directMatchType: req.body.directMatchType,
        adChannelCode: req.body.adChannelCode ?? req.user!.adChannelCode ?? null,
        phoneModel: req.body.phoneModel,
        secondMatch: second,
        log: req.log,
        requestId: req.id,
      });
      return ok(result);
    },
  );

  app.get(
    '/api/user/info/match/:matchKey',
    {
      schema: {
        tags,
        security,
        summary:
          'A match by its matchKey (issue 16.8: links carry the key, never the result): the run’s offers ' +
          'still open, with the lenders’ details. Only the person it belongs to can read it: another ' +
          'person’s key, a forged or a broken one answers 404 匹配结果不存在',
        params: matchKeyParams,
        refusals: [404],
        response: { 200: envelope(matchResultSchema) },
      },
    },
    async (req) => {
      const userId = req.user!.id;
      const runId = runOfMatchKey(app.services.keys.ring, req.params.matchKey, userId);
      const result = runId === null ? null : await matching.load(userId, runId, req.params.matchKey);
      if (!result) throw appError('NOT_FOUND', MATCH_NOT_FOUND_MSG);
      return ok(result);
    },
  );
};

export const MATCH_NOT_FOUND_MSG = '匹配结果不存在';

export default matchingRoutes;
