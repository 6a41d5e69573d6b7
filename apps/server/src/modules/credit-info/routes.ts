import {
  BASE_FIELDS,
  contactPairProblems,
  INFORMATION_FIELDS,
  normalizeContacts,
} from '@lm/shared/credit-info';
import { baseTempSaveData, creditInfoData, creditInfoPatchBody } from '@lm/shared/schemas/credit-info';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/app/auth.ts';
import { type CreditRecord, stepOf } from './service.ts';

const tags = ['credit info'];
const security = [{ accessToken: [] }];

/** The stored fields that are answered (anything else in the record is not). */
function shown(record: CreditRecord) {
  const out: Record<string, unknown> = {};
  for (const field of [...INFORMATION_FIELDS, ...BASE_FIELDS]) {
    const value = record.info[field];
    if (value !== null && value !== undefined) out[field] = value;
  }
  return out;
}

/**
 * Spec §7 GET /api/app/userInfo/baseDetail and POST /api/app/userInfo/baseTempSave (issue 5 "Credit
 * information"). The record is encrypted at rest; it is answered in clear (contacts' names and phones
 * included) only to its owner over this authenticated call, because the person edits it in the wizard.
 * Logs carry the names of the saved fields, never their values.
 */
const creditInfoRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const credit = app.services.creditInfo;

  // Before body validation: an anonymous caller learns nothing about the rules.
  app.addHook('onRequest', requireUser);

  app.get(
    '/api/app/userInfo/baseDetail',
    {
      schema: {
        tags,
        security,
        summary:
          'Credit information (spec §3) of the caller in clear, contacts as two entries (blank until ' +
          'given), face status auditStatus (0/1/2) and the wizard step (IDENTITY, INFORMATION, CONTACT, BASE, DONE)',
        response: { 200: envelope(creditInfoData) },
      },
    },
    async (req, reply) => {
      const record = await credit.record(req.user!.id);
      reply.header('cache-control', 'no-store');
      return ok({
        ...shown(record),
        contacts: normalizeContacts(record.info.contacts),
        auditStatus: record.auditStatus,
        step: stepOf(record),
      });
    },
  );

  app.post(
    '/api/app/userInfo/baseTempSave',
    {
      schema: {
        tags,
        security,
        summary:
          'Save part of the credit information (merged into the stored record); contacts as a pair, ' +
          "neither the caller's own phone nor the same phone twice; answers the wizard step after the save",
        body: creditInfoPatchBody,
        response: { 200: envelope(baseTempSaveData) },
      },
    },
    async (req) => {
      const user = req.user!;
      if (req.body.contacts) {
        // The own-phone rule needs the caller's phone: compared through its blind index (users.mobileHash
        // is the phone's blind index, see plugins/app/services.ts), never decrypted here.
        const isOwnPhone = (phone: string) =>
          user.mobileHash !== null && app.services.phoneIndex(phone) === user.mobileHash;
        const [first] = contactPairProblems(req.body.contacts, isOwnPhone);
        if (first) {
          const field = `contacts.${first.index}.${first.field}`;
          throw appError('VALIDATION_FAILED', `${first.message}（${field}）`, {
            fields: [{ field, message: first.message }],
          });
        }
      }
      const saved = await credit.save(user.id, req.body);
      req.log.info({ userId: user.id, fields: Object.keys(req.body) }, 'credit info saved');
      return ok({ savedAt: saved.savedAt.toISOString(), step: stepOf(saved) });
    },
  );
};

export default creditInfoRoutes;
