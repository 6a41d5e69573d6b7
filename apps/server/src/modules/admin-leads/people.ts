import type {
  AdminRevealData,
  AdminUserDetail,
  AdminUserList,
  AdminUserListQuery,
  RevealField,
} from '@lm/shared/schemas/admin-leads';
import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import {
  applicationDrafts,
  consents,
  creditProfiles,
  leadAttempts,
  leads,
  matchOffers,
  matchRuns,
  partnerNotices,
  partners,
  products,
  sessions,
  users,
} from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { decryptField } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import { recordAudit } from '../audit/service.ts';
import { maskIp } from '../privacy/rules.ts';
import {
  type AdminLeadsDeps,
  attemptItem,
  iso,
  leadItem,
  leadQuery,
  RUN_LIMIT,
  SESSION_LIMIT,
  type Tx,
} from './lead-rows.ts';
import {
  contactsOf,
  excludedWithNames,
  leadCountsByUser,
  maskContacts,
  maskDraft,
  shanghaiDayRange,
} from './rules.ts';

/**
 * The console's people (用户与线索): found by exact phone (blind index), their applications, offers, consents,
 * leads, notices and sessions, all masked; `reveal` decrypts one field for a staff member who gave a reason and
 * records who, which field, why and when — never the value.
 */
export class AdminPeopleService {
  constructor(private readonly d: AdminLeadsDeps) {}

  private decryptJson(enc: string | null | undefined): Record<string, unknown> | null {
    if (!enc) return null;
    try {
      const v: unknown = JSON.parse(decryptField(this.d.ring, enc));
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  async listUsers(q: AdminUserListQuery): Promise<AdminUserList> {
    const conds: SQL[] = [];
    if (q.phone) conds.push(eq(users.mobileHash, this.d.phoneIndex(q.phone)));
    if (q.channelCode) conds.push(eq(users.adChannelCode, q.channelCode));
    if (q.status) conds.push(eq(users.status, q.status));
    if (q.userInfoStatus !== undefined) conds.push(eq(users.userInfoStatus, q.userInfoStatus));
    const { start, end } = shanghaiDayRange(q.from, q.to);
    if (start) conds.push(gte(users.createdAt, start));
    if (end) conds.push(lt(users.createdAt, end));
    const where = conds.length ? and(...conds) : undefined;

    const [{ total } = { total: 0 }] = await this.d.db.select({ total: count() }).from(users).where(where);
    const col = q.sort === 'lastLoginAt' ? users.lastLoginAt : users.createdAt;
    const dir = q.order === 'asc' ? sql`asc` : sql`desc`;
    const rows = await this.d.db
      .select()
      .from(users)
      .where(where)
      .orderBy(sql`${col} ${dir} nulls last`, q.order === 'asc' ? asc(users.id) : desc(users.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    const ids = rows.map((r) => r.id);
    const [consentCounts, leadRows] = ids.length
      ? await Promise.all([
          this.d.db
            .select({ userId: consents.userId, n: count() })
            .from(consents)
            .where(inArray(consents.userId, ids))
            .groupBy(consents.userId),
          this.d.db
            .select({ userId: leads.userId, status: leads.status, n: count() })
            .from(leads)
            .where(inArray(leads.userId, ids))
            .groupBy(leads.userId, leads.status),
        ])
      : [[], []];
    const leadCounts = leadCountsByUser(leadRows);
    return {
      total: Number(total),
      page: q.page,
      pageSize: q.pageSize,
      list: rows.map((u) => ({
        id: u.id,
        phoneMasked: u.mobileMasked,
        channelCode: u.adChannelCode,
        status: u.status,
        userInfoStatus: u.userInfoStatus,
        formSubmitted: u.userInfoStatus >= 1,
        consents: Number(consentCounts.find((c) => c.userId === u.id)?.n ?? 0),
        leads: leadCounts.get(u.id) ?? {},
        createdAt: u.createdAt.toISOString(),
        lastLoginAt: iso(u.lastLoginAt),
      })),
    };
  }

  /** One person in full (masked); attempt details when `opts.attemptDetails` (administrators). */
  async userDetail(userId: number, opts: { attemptDetails: boolean }): Promise<AdminUserDetail> {
    const db = this.d.db;
    const [u] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!u) throw appError('NOT_FOUND', '用户不存在');
    const [draft, credit, runs, consentRows, leadRows, noticeRows, sessionRows] = await Promise.all([
      db.select().from(applicationDrafts).where(eq(applicationDrafts.userId, userId)).limit(1),
      db.select().from(creditProfiles).where(eq(creditProfiles.userId, userId)).limit(1),
      db
        .select()
        .from(matchRuns)
        .where(eq(matchRuns.userId, userId))
        .orderBy(desc(matchRuns.createdAt), desc(matchRuns.id))
        .limit(RUN_LIMIT),
      db
        .select({ c: consents, productName: products.productName, partnerName: partners.legalName })
        .from(consents)
        .innerJoin(products, eq(consents.productId, products.id))
        .innerJoin(partners, eq(consents.partnerId, partners.id))
        .where(eq(consents.userId, userId))
        .orderBy(desc(consents.id)),
      leadQuery(this.d.db, eq(leads.userId, userId)).orderBy(desc(leads.id)),
      db
        .select({ n: partnerNotices, partnerName: partners.legalName })
        .from(partnerNotices)
        .innerJoin(partners, eq(partnerNotices.partnerId, partners.id))
        .where(eq(partnerNotices.userId, userId))
        .orderBy(desc(partnerNotices.id)),
      db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(desc(sessions.id))
        .limit(SESSION_LIMIT),
    ]);
    const runIds = runs.map((r) => r.id);
    const leadIds = leadRows.map((l) => l.id);
    const [offers, attempts] = await Promise.all([
      runIds.length
        ? db
            .select({ o: matchOffers, productName: products.productName, partnerName: partners.legalName })
            .from(matchOffers)
            .innerJoin(products, eq(matchOffers.productId, products.id))
            .innerJoin(partners, eq(matchOffers.partnerId, partners.id))
            .where(inArray(matchOffers.runId, runIds))
            .orderBy(matchOffers.runId, matchOffers.rank, matchOffers.id)
        : [],
      leadIds.length
        ? db.select().from(leadAttempts).where(inArray(leadAttempts.leadId, leadIds)).orderBy(leadAttempts.id)
        : [],
    ]);
    const excludedIds = [
      ...new Set(runs.flatMap((r) => r.excluded.map((e) => Number(e.productId)).filter(Number.isInteger))),
    ];
    const names = new Map(
      excludedIds.length
        ? (
            await db
              .select({ id: products.id, name: products.productName })
              .from(products)
              .where(inArray(products.id, excludedIds))
          ).map((p) => [String(p.id), p.name])
        : [],
    );

    const draftData = this.decryptJson(draft[0]?.dataEnc);
    const creditData = this.decryptJson(credit[0]?.dataEnc);
    return {
      user: {
        id: u.id,
        phoneMasked: u.mobileMasked,
        channelCode: u.adChannelCode,
        status: u.status,
        userInfoStatus: u.userInfoStatus,
        coverStatus: u.coverStatus,
        abTestType: u.abTestType,
        isFormReq: u.isFormReq,
        createdAt: u.createdAt.toISOString(),
        lastLoginAt: iso(u.lastLoginAt),
        cancelledAt: iso(u.cancelledAt),
      },
      draft:
        draft[0] && draftData
          ? { ...maskDraft(draftData), updatedAt: draft[0].updatedAt.toISOString() }
          : null,
      credit: credit[0]
        ? {
            auditStatus: credit[0].auditStatus,
            contacts: maskContacts(contactsOf(creditData)),
            updatedAt: credit[0].updatedAt.toISOString(),
          }
        : null,
      runs: runs.map((r) => ({
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        source: r.source,
        matchType: r.matchType,
        directMatchType: r.directMatchType,
        channelCode: r.adChannelCode,
        applyStatus: r.applyStatus,
        excludedCount: r.excluded.length,
        excluded: excludedWithNames(r.excluded, names),
        offers: offers
          .filter((o) => o.o.runId === r.id)
          .map(({ o, productName, partnerName }) => ({
            id: o.id,
            productId: o.productId,
            productName,
            partnerName,
            rank: o.rank,
            status: o.status,
            createdAt: o.createdAt.toISOString(),
            decidedAt: iso(o.decidedAt),
          })),
      })),
      consents: consentRows.map(({ c, productName, partnerName }) => ({
        id: c.id,
        offerId: c.offerId,
        productName,
        partnerName,
        agreementCode: c.agreementCode,
        agreementVersion: c.agreementVersion,
        textHash: c.textHash,
        fields: c.fields,
        createdAt: c.createdAt.toISOString(),
        withdrawnAt: iso(c.withdrawnAt),
      })),
      leads: leadRows.map((l) => ({
        ...leadItem(l),
        consentId: l.consentId,
        attemptList: attempts
          .filter((a) => a.leadId === l.id)
          .map((a) => attemptItem(a, opts.attemptDetails)),
      })),
      notices: noticeRows.map(({ n, partnerName }) => ({
        id: n.id,
        partnerName,
        kind: n.kind,
        status: n.status,
        attempts: n.attempts,
        createdAt: n.createdAt.toISOString(),
        dueAt: iso(n.dueAt),
        sentAt: iso(n.sentAt),
        confirmedAt: iso(n.confirmedAt),
        lastError: n.lastError,
      })),
      sessions: sessionRows.map((s) => ({
        id: s.id,
        createdAt: s.createdAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        revokedAt: iso(s.revokedAt),
        revokeReason: s.revokeReason,
        ip: maskIp(s.ip),
        userAgent: s.userAgent,
      })),
    };
  }

  /**
   * Decrypts one field of a person for the staff member acting, and writes the audit entry (who,
   * which field, the reason) in the same transaction. The value itself is never recorded or logged.
   */
  async reveal(actor: Actor, userId: number, field: RevealField, reason: string): Promise<AdminRevealData> {
    return this.d.db.transaction(async (trx) => {
      const tx = trx as unknown as Tx;
      const [u] = await tx
        .select({ id: users.id, mobileEnc: users.mobileEnc, status: users.status })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      if (!u) throw appError('NOT_FOUND', '用户不存在');
      let out: AdminRevealData;
      if (field === 'mobile') {
        if (!u.mobileEnc) throw appError('NOT_FOUND', '该用户已注销，手机号已删除');
        out = { field, value: decryptField(this.d.ring, u.mobileEnc), contacts: null };
      } else if (field === 'contacts') {
        const [row] = await tx
          .select({ dataEnc: creditProfiles.dataEnc })
          .from(creditProfiles)
          .where(eq(creditProfiles.userId, userId))
          .limit(1);
        const contacts = contactsOf(this.decryptJson(row?.dataEnc)).filter((c) => c.name || c.phone);
        if (contacts.length === 0) throw appError('NOT_FOUND', '该用户没有填写紧急联系人');
        out = { field, value: null, contacts };
      } else {
        const [row] = await tx
          .select({ dataEnc: applicationDrafts.dataEnc })
          .from(applicationDrafts)
          .where(eq(applicationDrafts.userId, userId))
          .limit(1);
        const value = this.decryptJson(row?.dataEnc)?.[field];
        if (typeof value !== 'string' || !value) {
          throw appError(
            'NOT_FOUND',
            field === 'realName' ? '该用户没有填写真实姓名' : '该用户没有填写身份证号',
          );
        }
        out = { field, value, contacts: null };
      }
      await recordAudit(tx, actor, {
        action: 'reveal',
        entity: 'user',
        entityId: userId,
        after: { field },
        reason,
      });
      return out;
    });
  }
}
