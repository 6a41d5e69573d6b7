import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { partnerSandboxOn } from '../../config/outbound.ts';
import { leads, partners, sandboxPartnerLeads } from '../../db/schema.ts';
import { decryptField } from '../../lib/crypto.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { isAllowedPartnerUrl } from '../../lib/partner-url.ts';
import { phoneHash } from '../../lib/phone-hash.ts';
import { type PartnerSecrets, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWithRotation } from './signing.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const leadCallbackBody = z.object({
  leadId: z.string().min(1).max(64),
  status: z.string().min(1).max(32),
  partnerRef: z.string().max(128).optional(),
  /** Joint login (link type 8): where the person continues at the lender. */
  loginUrl: z.string().max(2048).optional(),
  message: z.string().max(500).optional(),
});

/** The lender confirms it deleted the data of a deletion notice (docs/privacy.md). */
const deletionCallbackBody = z.object({
  event: z.literal('data.deleted'),
  noticeId: z.string().min(1).max(64),
});

const callbackBody = z.union([deletionCallbackBody, leadCallbackBody]);

/**
 * Partner-facing calls: match callbacks (link type 5) and joint-login results (8), signed with the
 * partner's secret; plus, outside production, the local partner sandbox.
 */
const deliveryRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.database;
  const ring = app.services.keys.ring;

  // Signatures cover the raw body: keep it (this plugin only).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    req.rawBody = body as string;
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(appError('VALIDATION_FAILED', '请求体不是有效的 JSON'), undefined);
    }
  });

  const partnerSecret = async (code: string) => {
    const [p] = await db
      .select({
        id: partners.id,
        secretEnc: partners.signingSecretEnc,
        previousEnc: partners.previousSigningSecretEnc,
        rotatedAt: partners.secretRotatedAt,
        allowedHosts: partners.allowedHosts,
      })
      .from(partners)
      .where(eq(partners.code, code))
      .limit(1);
    if (!p?.secretEnc) return null;
    const secrets: PartnerSecrets = {
      current: decryptField(ring, p.secretEnc),
      previous: p.previousEnc ? decryptField(ring, p.previousEnc) : null,
      rotatedAt: p.rotatedAt,
    };
    return { id: p.id, secret: secrets.current, secrets, allowedHosts: p.allowedHosts };
  };

  /** Current secret, or the previous one within 24 h of a rotation (SECRET_GRACE_MS). */
  const verify = (req: FastifyRequest, secrets: PartnerSecrets) => {
    const problem = verifyWithRotation(
      secrets,
      header(req, TIMESTAMP_HEADER),
      header(req, SIGNATURE_HEADER),
      req.rawBody ?? '',
      Date.now(),
    );
    if (problem) throw appError('BAD_SIGNATURE', problem === 'stale' ? '签名已过期' : undefined);
  };

  app.post(
    '/api/partner/callback',
    {
      schema: {
        tags: ['partners'],
        summary:
          'Partner callback (match callback / joint login / data.deleted): signed like lead delivery, with X-LM-Partner: code',
        body: callbackBody,
        refusals: [401, 404],
        response: {
          200: envelope(
            z.union([
              z.object({ leadId: z.string(), status: z.string() }),
              z.object({ noticeId: z.string(), status: z.literal('confirmed') }),
            ]),
          ),
        },
      },
    },
    async (req) => {
      const code = header(req, 'x-lm-partner');
      const partner = code ? await partnerSecret(code) : null;
      if (!partner) throw appError('BAD_SIGNATURE', '未知的合作机构');
      verify(req, partner.secrets);
      if ('event' in req.body) {
        const { noticeId } = req.body;
        const found = await app.services.privacy.confirmDeletion(partner.id, noticeId);
        if (!found) throw appError('NOT_FOUND', '删除通知不存在');
        return ok({ noticeId, status: 'confirmed' as const });
      }
      const { leadId, status, partnerRef, loginUrl, message } = req.body;
      if (loginUrl && !isAllowedPartnerUrl(loginUrl, partner.allowedHosts)) {
        throw appError('VALIDATION_FAILED', 'loginUrl 不在该机构允许的域名内');
      }
      const [lead] = await db
        .update(leads)
        .set({
          status: 'delivered',
          deliveredAt: new Date(),
          callback: { status, ...(loginUrl ? { loginUrl } : {}), ...(message ? { message } : {}) },
          ...(partnerRef ? { partnerRef } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(leads.idempotencyKey, leadId), eq(leads.partnerId, partner.id)))
        .returning({ id: leads.id });
      if (!lead) throw appError('NOT_FOUND', '线索不存在');
      return ok({ leadId, status: 'recorded' });
    },
  );

  if (!partnerSandboxOn(app.config)) return;

  const codeParam = z.object({ code: z.string().regex(/^[a-z0-9-]{1,40}$/) });
  const sandboxTags = ['dev: partner sandbox'];

  app.post(
    '/api/dev/partner-sandbox/:code/leads',
    {
      schema: {
        tags: sandboxTags,
        summary:
          'A lender’s lead API: checks the signature, de-duplicates on the idempotency key; takes notices too (a deletion deletes the leads and answers {deleted:true})',
        params: codeParam,
        refusals: [401],
        response: {
          200: z.union([
            z.object({ id: z.string(), duplicate: z.boolean() }),
            z.object({ received: z.literal(true) }),
            z.object({ deleted: z.literal(true) }),
          ]),
        },
      },
    },
    async (req, reply) => {
      const partner = await partnerSecret(req.params.code);
      if (!partner) throw appError('NOT_FOUND', '未知的合作机构');
      verify(req, partner.secrets);
      const key = header(req, 'idempotency-key');
      const notice = req.body as { type?: string; noticeId?: string; leadIds?: unknown };
      if (notice.type === 'consent.withdrawn' || notice.type === 'data.deletion_requested') {
        // A notice about leads this lender received (docs/privacy.md).
        if (!key || key !== notice.noticeId)
          throw appError('VALIDATION_FAILED', 'Idempotency-Key 与 noticeId 不一致');
        const leadIds = Array.isArray(notice.leadIds)
          ? notice.leadIds.filter((x): x is string => typeof x === 'string')
          : [];
        if (notice.type === 'consent.withdrawn') return reply.send({ received: true });
        if (leadIds.length > 0) {
          await db
            .delete(sandboxPartnerLeads)
            .where(
              and(
                eq(sandboxPartnerLeads.partnerCode, req.params.code),
                inArray(sandboxPartnerLeads.idempotencyKey, leadIds),
              ),
            );
        }
        return reply.send({ deleted: true });
      }
      const body = req.body as { leadId?: string; fields?: { mobile?: string } };
      if (!key || key !== body.leadId)
        throw appError('VALIDATION_FAILED', 'Idempotency-Key 与 leadId 不一致');
      const inserted = await db
        .insert(sandboxPartnerLeads)
        .values({
          partnerCode: req.params.code,
          idempotencyKey: key,
          phoneHash: phoneHash(partner.secret, body.fields?.mobile ?? ''),
          body: body as Record<string, unknown>,
        })
        .onConflictDoNothing()
        .returning({ id: sandboxPartnerLeads.id });
      const [row] = await db
        .select({ id: sandboxPartnerLeads.id })
        .from(sandboxPartnerLeads)
        .where(
          and(
            eq(sandboxPartnerLeads.partnerCode, req.params.code),
            eq(sandboxPartnerLeads.idempotencyKey, key),
          ),
        );
      return reply.send({ id: `SB-${row!.id}`, duplicate: inserted.length === 0 });
    },
  );

  app.post(
    '/api/dev/partner-sandbox/:code/dup-check',
    {
      schema: {
        tags: sandboxTags,
        summary: 'A lender’s duplicate pre-check: {phoneHash} → {exists} from the leads it received',
        params: codeParam,
        body: z.object({ phoneHash: z.string().regex(/^[0-9a-f]{64}$/) }),
        response: { 200: z.object({ exists: z.boolean() }) },
      },
    },
    async (req) => {
      const [row] = await db
        .select({ id: sandboxPartnerLeads.id })
        .from(sandboxPartnerLeads)
        .where(
          and(
            eq(sandboxPartnerLeads.partnerCode, req.params.code),
            eq(sandboxPartnerLeads.phoneHash, req.body.phoneHash),
          ),
        )
        .limit(1);
      return { exists: Boolean(row) };
    },
  );

  app.get(
    '/api/dev/partner-sandbox/:code/leads',
    {
      schema: {
        tags: sandboxTags,
        summary: 'What the sandbox lender received (latest 50)',
        params: codeParam,
        response: {
          200: envelope(
            z.array(
              z.object({
                idempotencyKey: z.string(),
                receivedAt: z.string(),
                fieldNames: z.array(z.string()),
                autoForm: z.boolean(),
              }),
            ),
          ),
        },
      },
    },
    async (req) => {
      const rows = await db
        .select()
        .from(sandboxPartnerLeads)
        .where(eq(sandboxPartnerLeads.partnerCode, req.params.code))
        .orderBy(desc(sandboxPartnerLeads.id))
        .limit(50);
      return ok(
        rows.map((r) => ({
          idempotencyKey: r.idempotencyKey,
          receivedAt: r.receivedAt.toISOString(),
          fieldNames: Object.keys((r.body.fields as Record<string, unknown> | undefined) ?? {}),
          autoForm: r.body.autoForm === true,
        })),
      );
    },
  );
};

export default deliveryRoutes;
