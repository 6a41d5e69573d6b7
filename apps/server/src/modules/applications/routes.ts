import {
  applicationDraftBody,
  applicationDraftData,
  applicationFormBody,
  applyStatusData,
  statusResultData,
  tempSaveData,
  userFormConfigData,
  userFormConfigQuery,
  verifiedIdentityData,
} from '@lm/shared/schemas/application';
import { ageFromIdCard, genderFromIdCard } from '@lm/shared/validators/id-card';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireUser } from '../../plugins/app/auth.ts';
import { REALNAME_NOTES } from '../../providers/realname/index.ts';
import { VerifiedIdentities } from '../identity/verified.ts';
import { submitStatusOf, userFormConfig } from './rules.ts';
import { ApplicationService } from './service.ts';

const tags = ['user info'];
const security = [{ accessToken: [] }];

/** Real-name checks per person per hour (each may cost a paid verification call). */
export const REALNAME_CHECKS_PER_USER_PER_HOUR = 10;

const formFields = applicationFormBody.out.shape;
const identityNameVerifyBody = z.object(
  { realName: formFields.realName, identity: formFields.identity },
  { error: '请求数据必须是对象' },
);
const identityNameVerifyData = z.object({
  /** null: nobody confirmed the name against the number (local provider, or the service failed). */
  verified: z.boolean().nullable(),
  method: z.enum(['format-only', 'provider']),
  note: z.string(),
  age: z.number().int(),
  /** 1 male, 2 female (from the number). */
  gender: z.number().int(),
});

/** Spec §7 "User info": the form draft, apply status and form config (issue 4 "Form calls"). */
const applicationRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const drafts = new ApplicationService({ db: app.database.db, ring: app.services.keys.ring });
  const identities = new VerifiedIdentities({ db: app.database.db, ring: app.services.keys.ring });
  const { channels } = app.services;

  // Before body validation: an anonymous caller learns nothing about the form's rules.
  app.addHook('onRequest', requireUser);

  app.post(
    '/api/user/info/tempSave',
    {
      schema: {
        tags,
        security,
        summary:
          'Autosave part of the application-form draft (merged into the stored draft); a name or number ' +
          'other than the verified identity answers 400 and nothing is stored',
        body: applicationDraftBody,
        response: { 200: envelope(tempSaveData) },
      },
    },
    async (req) => {
      await identities.check(req.user!.id, req.body);
      const savedAt = await drafts.tempSave(req.user!.id, req.body);
      return ok({ savedAt: savedAt.toISOString() });
    },
  );

  app.post(
    '/api/user/info/identityNameVerify',
    {
      schema: {
        tags,
        security,
        summary:
          'Real name + ID number: format, region, birth date and checksum, then the real-name provider ' +
          '(local: format only, verified null)',
        body: identityNameVerifyBody,
        refusals: [429],
        response: { 200: envelope(identityNameVerifyData) },
      },
    },
    async (req) => {
      const { realName, identity } = req.body;
      // After a passed face verification only the verified identity (issue 16.1).
      await identities.check(req.user!.id, req.body);
      await app.services.limiter.enforce(
        `realname:user:${req.user!.id}`,
        REALNAME_CHECKS_PER_USER_PER_HOUR,
        { ms: 3600_000 },
        '实名校验',
      );
      const result = await app.services.realName.verify({ name: realName, idNumber: identity });
      const reason = result.reason ?? (result.method === 'format-only' ? 'format-only' : 'unavailable');
      return ok({
        verified: result.verified,
        method: result.method,
        note: REALNAME_NOTES[reason],
        age: ageFromIdCard(identity),
        gender: genderFromIdCard(identity),
      });
    },
  );

  app.get(
    '/api/user/info/verifiedIdentity',
    {
      schema: {
        tags,
        security,
        summary:
          'The identity the passed face verification was made with (issue 16.1): the name and the ID number ' +
          'masked; the application form shows them read-only and may leave them out of the save',
        response: { 200: envelope(verifiedIdentityData) },
      },
    },
    async (req) => ok(await identities.shown(req.user!.id)),
  );

  app.get(
    '/api/user/info/form/show',
    {
      schema: {
        tags,
        security,
        summary: 'The stored draft (real name and ID number masked), or an empty object',
        response: { 200: envelope(applicationDraftData) },
      },
    },
    async (req) => ok(await drafts.shownDraft(req.user!.id)),
  );

  app.get(
    '/api/user/info/detail',
    {
      schema: {
        tags,
        security,
        summary: 'Apply status: submitStatus (0/1/10), applyLimit, workCity',
        response: { 200: envelope(applyStatusData) },
      },
    },
    async (req) => {
      const draft = await drafts.draft(req.user!.id);
      return ok({
        submitStatus: submitStatusOf(req.user!.userInfoStatus),
        applyLimit: draft.applyLimit ?? null,
        workCity: draft.workCity ?? null,
      });
    },
  );

  app.get(
    '/api/user/info/status/result',
    {
      schema: {
        tags,
        security,
        summary: 'Submit status with the user info and cover statuses',
        response: { 200: envelope(statusResultData) },
      },
    },
    async (req) =>
      ok({
        submitStatus: submitStatusOf(req.user!.userInfoStatus),
        userInfoStatus: req.user!.userInfoStatus,
        coverStatus: req.user!.coverStatus,
      }),
  );

  app.get(
    '/api/app/userInfo/userFormConfig',
    {
      schema: {
        tags,
        security,
        summary: 'creditStatus (1 for CRM link type 3 channels), diversionStatus, coverStatus',
        querystring: userFormConfigQuery,
        response: { 200: envelope(userFormConfigData) },
      },
    },
    async (req) => {
      const code = req.query.adChannelCode ?? req.user!.adChannelCode ?? undefined;
      const channel = code ? await channels.find(code) : null;
      return ok(userFormConfig(channel?.linkType ?? null, req.user!.coverStatus));
    },
  );
};

export default applicationRoutes;
