import { randomUUID } from 'node:crypto';
import type {
  ApplicationList,
  DataSharingEntry,
  LeadStatusValue,
  SessionItem,
} from '@lm/shared/schemas/privacy';
import { and, count, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  applicationDrafts,
  consents,
  creditProfiles,
  deviceReports,
  events,
  faceChecks,
  leads,
  matchOffers,
  matchRuns,
  partnerNotices,
  partners,
  productEvents,
  products,
  sessions,
  uploadedFiles,
  users,
} from '../../db/schema.ts';
import { decryptField, encryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import {
  addWorkingDays,
  deviceSummary,
  groupSharing,
  maskIp,
  planWithdrawal,
  type SharingNotice,
  type SharingRow,
} from './rules.ts';

export interface PrivacyDeps {
  db: Db;
  ring: KeyRing;
  /** Working days a lender has to delete the data after a cancellation (default 15). */
  deletionDeadlineWorkingDays: number;
  operator: { name: string; email: string; servicePhone: string };
}

/** A transaction handle (drizzle's transaction has the query API of the database). */
type Tx = Db;

const SESSION_LIST_LIMIT = 20;
/** Rows per analytics table in an export (newest first). */
const EXPORT_EVENT_LIMIT = 2000;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * The person's rights over their data (docs/privacy.md): sessions, application record, who has
 * their data (with withdrawal per lender), export, and the deletion notices a cancellation sends to
 * every lender that received data (the console's list of them: admin-notices.ts).
 */
export class PrivacyService {
  constructor(private readonly d: PrivacyDeps) {}

  // -------------------------------------------------------------------------------------------
  // Sessions

  async sessions(userId: number, currentSessionId: number | null, now = new Date()): Promise<SessionItem[]> {
    const rows = await this.d.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.createdAt), desc(sessions.id))
      .limit(SESSION_LIST_LIMIT);
    return rows.map((s) => ({
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      ip: maskIp(s.ip),
      device: deviceSummary(s.userAgent),
      current: s.id === currentSessionId,
      active: s.revokedAt === null && s.expiresAt > now,
      revokedAt: iso(s.revokedAt),
      revokeReason: s.revokeReason ?? null,
    }));
  }

  /** Revokes every session of the person, the current one included (they log in again). */
  async logoutAll(userId: number): Promise<number> {
    const revoked = await this.d.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokeReason: 'logout' })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return revoked.length;
  }

  // -------------------------------------------------------------------------------------------
  // Application record

  async applications(userId: number, page: number, pageSize: number): Promise<ApplicationList> {
    const [{ total } = { total: 0 }] = await this.d.db
      .select({ total: count() })
      .from(matchRuns)
      .where(eq(matchRuns.userId, userId));
    const runs = await this.d.db
      .select({
        id: matchRuns.id,
        createdAt: matchRuns.createdAt,
        channelCode: matchRuns.adChannelCode,
        matchType: matchRuns.matchType,
      })
      .from(matchRuns)
      .where(eq(matchRuns.userId, userId))
      .orderBy(desc(matchRuns.createdAt), desc(matchRuns.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    const runIds = runs.map((r) => r.id);
    const offers = runIds.length
      ? await this.d.db
          .select({
            runId: matchOffers.runId,
            offerId: matchOffers.id,
            productId: matchOffers.productId,
            rank: matchOffers.rank,
            status: matchOffers.status,
            productName: products.productName,
            aprBps: products.aprBps,
            lenderName: partners.legalName,
            consentId: consents.id,
            consentedAt: consents.createdAt,
            agreementVersion: consents.agreementVersion,
            withdrawnAt: consents.withdrawnAt,
            leadStatus: leads.status,
            deliveredAt: leads.deliveredAt,
          })
          .from(matchOffers)
          .innerJoin(products, eq(matchOffers.productId, products.id))
          .innerJoin(partners, eq(matchOffers.partnerId, partners.id))
          .leftJoin(consents, eq(consents.offerId, matchOffers.id))
          .leftJoin(leads, eq(leads.consentId, consents.id))
          .where(and(eq(matchOffers.userId, userId), inArray(matchOffers.runId, runIds)))
          .orderBy(matchOffers.runId, matchOffers.rank, matchOffers.id)
      : [];
    return {
      total: Number(total),
      page,
      pageSize,
      list: runs.map((r) => ({
        runId: r.id,
        createdAt: r.createdAt.toISOString(),
        channelCode: r.channelCode,
        matchType: r.matchType,
        offers: offers
          .filter((o) => o.runId === r.id)
          .map((o) => ({
            offerId: o.offerId,
            productId: o.productId,
            productName: o.productName,
            lenderName: o.lenderName,
            aprBps: o.aprBps,
            status: o.status,
            consent:
              o.consentId !== null && o.consentedAt && o.agreementVersion !== null
                ? {
                    id: o.consentId,
                    createdAt: o.consentedAt.toISOString(),
                    agreementVersion: o.agreementVersion,
                    withdrawnAt: iso(o.withdrawnAt),
                  }
                : null,
            delivery: o.leadStatus ? { status: o.leadStatus, deliveredAt: iso(o.deliveredAt) } : null,
          })),
      })),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Who has my data

  async dataSharing(userId: number, partnerId?: number): Promise<DataSharingEntry[]> {
    const conds = [eq(consents.userId, userId)];
    if (partnerId !== undefined) conds.push(eq(consents.partnerId, partnerId));
    const rows = await this.d.db
      .select({
        partnerId: consents.partnerId,
        lenderName: partners.legalName,
        licenceNumber: partners.licenceNumber,
        productName: products.productName,
        consentedAt: consents.createdAt,
        fields: consents.fields,
        withdrawnAt: consents.withdrawnAt,
        leadStatus: leads.status,
        deliveredAt: leads.deliveredAt,
        leadUpdatedAt: leads.updatedAt,
        attempts: leads.attempts,
      })
      .from(consents)
      .innerJoin(partners, eq(consents.partnerId, partners.id))
      .innerJoin(products, eq(consents.productId, products.id))
      .leftJoin(leads, eq(leads.consentId, consents.id))
      .where(and(...conds));
    const noticeConds = [eq(partnerNotices.userId, userId)];
    if (partnerId !== undefined) noticeConds.push(eq(partnerNotices.partnerId, partnerId));
    const notices: SharingNotice[] = await this.d.db
      .select({
        id: partnerNotices.id,
        partnerId: partnerNotices.partnerId,
        kind: partnerNotices.kind,
        status: partnerNotices.status,
        dueAt: partnerNotices.dueAt,
        confirmedAt: partnerNotices.confirmedAt,
        createdAt: partnerNotices.createdAt,
      })
      .from(partnerNotices)
      .where(and(...noticeConds));
    const sharing: SharingRow[] = rows.map((r) => ({
      partnerId: r.partnerId,
      lenderName: r.lenderName,
      licenceNumber: r.licenceNumber,
      productName: r.productName,
      consentedAt: r.consentedAt,
      fields: r.fields,
      withdrawnAt: r.withdrawnAt,
      lead: r.leadStatus
        ? {
            status: r.leadStatus as LeadStatusValue,
            deliveredAt: r.deliveredAt,
            updatedAt: r.leadUpdatedAt!,
            attempts: r.attempts ?? 0,
          }
        : null,
    }));
    return groupSharing(sharing, notices);
  }

  /**
   * Withdraws the person's consents to one lender, in one transaction: the consents get
   * `withdrawn_at`; their leads still `pending` become `withdrawn` (never sent); when the lender has
   * (or may have) received any of them, a `withdrawal` notice is queued for the delivery worker.
   * A second call changes nothing. 404 when the person never consented to the lender.
   */
  async withdraw(
    userId: number,
    partnerId: number,
    now = new Date(),
    requestId: string | null = null,
  ): Promise<DataSharingEntry> {
    await this.d.db.transaction(async (trx) => {
      const tx = trx as unknown as Tx;
      // Serialises with the person's other withdrawals and with cancellation.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const [any] = await tx
        .select({ id: consents.id })
        .from(consents)
        .where(and(eq(consents.userId, userId), eq(consents.partnerId, partnerId)))
        .limit(1);
      if (!any) throw appError('NOT_FOUND', '您没有向该机构授权过个人信息');
      const newly = await tx
        .update(consents)
        .set({ withdrawnAt: now })
        .where(
          and(eq(consents.userId, userId), eq(consents.partnerId, partnerId), isNull(consents.withdrawnAt)),
        )
        .returning({ id: consents.id });
      if (newly.length === 0) return;
      const affected = await tx
        .select({ id: leads.id, key: leads.idempotencyKey, status: leads.status, attempts: leads.attempts })
        .from(leads)
        .where(
          inArray(
            leads.consentId,
            newly.map((c) => c.id),
          ),
        )
        .for('update');
      const plan = planWithdrawal(affected);
      await this.stopLeads(tx, plan.stop, now);
      if (plan.tell.length > 0) {
        await tx.insert(partnerNotices).values({
          userId,
          partnerId,
          kind: 'withdrawal',
          leadKeys: plan.tell,
          idempotencyKey: randomUUID(),
          status: 'pending',
          dueAt: null,
          requestId,
        });
      }
    });
    const [entry] = await this.dataSharing(userId, partnerId);
    return entry!;
  }

  private async stopLeads(tx: Tx, ids: number[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await tx
      .update(leads)
      .set({ status: 'withdrawn', lockedUntil: null, lastError: '用户已撤回授权', updatedAt: now })
      .where(and(inArray(leads.id, ids), eq(leads.status, 'pending')));
  }

  /**
   * Part of the cancellation transaction (AuthService.cancel): every consent still in force is
   * withdrawn, every pending lead stops, each lender that received (or may have received) data gets
   * one `deletion` notice due in `deletionDeadlineWorkingDays` working days, and the copies of the
   * person's answers kept with the matches and leads are erased (the consents, agreement hashes and
   * field names stay as evidence).
   */
  async onCancellation(
    tx: Tx,
    userId: number,
    now: Date,
    requestId: string | null = null,
  ): Promise<{ notices: number }> {
    await tx
      .update(consents)
      .set({ withdrawnAt: now })
      .where(and(eq(consents.userId, userId), isNull(consents.withdrawnAt)));
    const all = await tx
      .select({
        id: leads.id,
        key: leads.idempotencyKey,
        status: leads.status,
        attempts: leads.attempts,
        partnerId: leads.partnerId,
      })
      .from(leads)
      .where(eq(leads.userId, userId))
      .orderBy(leads.id)
      .for('update');
    const byPartner = new Map<number, typeof all>();
    for (const l of all) byPartner.set(l.partnerId, [...(byPartner.get(l.partnerId) ?? []), l]);
    const dueAt = addWorkingDays(now, this.d.deletionDeadlineWorkingDays);
    const stop: number[] = [];
    const notices: (typeof partnerNotices.$inferInsert)[] = [];
    for (const [partnerId, list] of byPartner) {
      const plan = planWithdrawal(list);
      stop.push(...plan.stop);
      if (plan.tell.length > 0) {
        notices.push({
          userId,
          partnerId,
          kind: 'deletion',
          leadKeys: plan.tell,
          idempotencyKey: randomUUID(),
          status: 'pending',
          dueAt,
          requestId,
        });
      }
    }
    await this.stopLeads(tx, stop, now);
    if (notices.length > 0) await tx.insert(partnerNotices).values(notices);
    // The answers copied into each lead and match run (name, ID number, phone …) go too.
    const empty = encryptField(this.d.ring, '{}');
    await tx.update(leads).set({ payloadEnc: empty, updatedAt: now }).where(eq(leads.userId, userId));
    await tx.update(matchRuns).set({ profileEnc: empty }).where(eq(matchRuns.userId, userId));
    return { notices: notices.length };
  }

  // -------------------------------------------------------------------------------------------
  // Export

  /** Everything the service holds about the person, decrypted (it is their own data). */
  async exportData(userId: number, now = new Date()) {
    const db = this.d.db;
    const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw appError('NOT_FOUND', '账号不存在');
    const decryptJson = (enc: string | null): unknown => {
      if (!enc) return null;
      try {
        return JSON.parse(decryptField(this.d.ring, enc));
      } catch {
        return '（无法解密）';
      }
    };

    const [sessionRows, draft, credit, runs, offers, consentRows, leadRows, noticeRows, files, faces] =
      await Promise.all([
        db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.id)),
        db.select().from(applicationDrafts).where(eq(applicationDrafts.userId, userId)).limit(1),
        db.select().from(creditProfiles).where(eq(creditProfiles.userId, userId)).limit(1),
        db.select().from(matchRuns).where(eq(matchRuns.userId, userId)).orderBy(desc(matchRuns.id)),
        db
          .select({
            offer: matchOffers,
            productName: products.productName,
            lenderName: partners.legalName,
          })
          .from(matchOffers)
          .innerJoin(products, eq(matchOffers.productId, products.id))
          .innerJoin(partners, eq(matchOffers.partnerId, partners.id))
          .where(eq(matchOffers.userId, userId))
          .orderBy(matchOffers.runId, matchOffers.rank),
        db
          .select({
            consent: consents,
            productName: products.productName,
            lenderName: partners.legalName,
            licenceNumber: partners.licenceNumber,
          })
          .from(consents)
          .innerJoin(products, eq(consents.productId, products.id))
          .innerJoin(partners, eq(consents.partnerId, partners.id))
          .where(eq(consents.userId, userId))
          .orderBy(desc(consents.id)),
        db
          .select({ lead: leads, productName: products.productName, lenderName: partners.legalName })
          .from(leads)
          .innerJoin(products, eq(leads.productId, products.id))
          .innerJoin(partners, eq(leads.partnerId, partners.id))
          .where(eq(leads.userId, userId))
          .orderBy(desc(leads.id)),
        db
          .select({ notice: partnerNotices, lenderName: partners.legalName })
          .from(partnerNotices)
          .innerJoin(partners, eq(partnerNotices.partnerId, partners.id))
          .where(eq(partnerNotices.userId, userId))
          .orderBy(desc(partnerNotices.id)),
        db
          .select()
          .from(uploadedFiles)
          .where(eq(uploadedFiles.ownerUserId, userId))
          .orderBy(desc(uploadedFiles.id)),
        db.select().from(faceChecks).where(eq(faceChecks.userId, userId)).orderBy(desc(faceChecks.id)),
      ]);
    const [eventRows, productEventRows, deviceRows] = await Promise.all([
      db
        .select()
        .from(events)
        .where(eq(events.userId, userId))
        .orderBy(desc(events.id))
        .limit(EXPORT_EVENT_LIMIT),
      db
        .select({ e: productEvents, productName: products.productName })
        .from(productEvents)
        .innerJoin(products, eq(productEvents.productId, products.id))
        .where(eq(productEvents.userId, userId))
        .orderBy(desc(productEvents.id))
        .limit(EXPORT_EVENT_LIMIT),
      db
        .select()
        .from(deviceReports)
        .where(eq(deviceReports.userId, userId))
        .orderBy(desc(deviceReports.id))
        .limit(EXPORT_EVENT_LIMIT),
    ]);

    return {
      exportedAt: now.toISOString(),
      note: '这是您在本平台的全部个人信息副本，请妥善保管，不要发送给他人。',
      operator: this.d.operator,
      account: {
        uid: user.id,
        phone: user.mobileEnc ? decryptField(this.d.ring, user.mobileEnc) : null,
        status: user.status,
        adChannelCode: user.adChannelCode,
        userInfoStatus: user.userInfoStatus,
        coverStatus: user.coverStatus,
        createdAt: user.createdAt.toISOString(),
        lastLoginAt: iso(user.lastLoginAt),
      },
      sessions: sessionRows.map((s) => ({
        id: s.id,
        createdAt: s.createdAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        revokedAt: iso(s.revokedAt),
        revokeReason: s.revokeReason,
        ip: s.ip,
        userAgent: s.userAgent,
      })),
      applicationDraft: draft[0]
        ? {
            data: decryptJson(draft[0].dataEnc),
            createdAt: draft[0].createdAt.toISOString(),
            updatedAt: draft[0].updatedAt.toISOString(),
          }
        : null,
      creditProfile: credit[0]
        ? {
            data: decryptJson(credit[0].dataEnc),
            faceStatus: credit[0].auditStatus,
            createdAt: credit[0].createdAt.toISOString(),
            updatedAt: credit[0].updatedAt.toISOString(),
          }
        : null,
      matchRuns: runs.map((r) => ({
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        source: r.source,
        matchType: r.matchType,
        directMatchType: r.directMatchType,
        channelCode: r.adChannelCode,
        applyStatus: r.applyStatus,
        answersMatched: decryptJson(r.profileEnc),
        excluded: r.excluded,
        offers: offers
          .filter((o) => o.offer.runId === r.id)
          .map((o) => ({
            offerId: o.offer.id,
            productName: o.productName,
            lenderName: o.lenderName,
            rank: o.offer.rank,
            status: o.offer.status,
            matchedRules: o.offer.matched,
            createdAt: o.offer.createdAt.toISOString(),
            decidedAt: iso(o.offer.decidedAt),
          })),
      })),
      consents: consentRows.map(({ consent: c, productName, lenderName, licenceNumber }) => ({
        id: c.id,
        offerId: c.offerId,
        productName,
        lenderName,
        licenceNumber,
        agreementCode: c.agreementCode,
        agreementVersion: c.agreementVersion,
        textHash: c.textHash,
        fields: c.fields,
        ip: c.ip,
        userAgent: c.userAgent,
        createdAt: c.createdAt.toISOString(),
        withdrawnAt: iso(c.withdrawnAt),
      })),
      leads: leadRows.map(({ lead: l, productName, lenderName }) => ({
        id: l.id,
        consentId: l.consentId,
        leadId: l.idempotencyKey,
        productName,
        lenderName,
        mode: l.mode,
        status: l.status,
        fieldsShared: decryptJson(l.payloadEnc),
        attempts: l.attempts,
        partnerRef: l.partnerRef,
        callback: l.callback,
        createdAt: l.createdAt.toISOString(),
        deliveredAt: iso(l.deliveredAt),
      })),
      partnerNotices: noticeRows.map(({ notice: n, lenderName }) => ({
        id: n.id,
        kind: n.kind,
        lenderName,
        status: n.status,
        leadIds: n.leadKeys,
        createdAt: n.createdAt.toISOString(),
        sentAt: iso(n.sentAt),
        dueAt: iso(n.dueAt),
        confirmedAt: iso(n.confirmedAt),
      })),
      uploadedFiles: files.map((f) => ({
        key: f.key,
        folder: f.folder,
        contentType: f.contentType,
        sizeBytes: f.sizeBytes,
        createdAt: f.createdAt.toISOString(),
      })),
      faceChecks: faces.map((f) => ({
        id: f.id,
        fileKey: f.fileKey,
        status: f.status,
        provider: f.provider,
        identityVerified: f.identityVerified,
        details: f.details,
        createdAt: f.createdAt.toISOString(),
      })),
      analytics: {
        events: eventRows.map((e) => ({
          step: e.step,
          adChannelCode: e.adChannelCode,
          source: e.source,
          day: e.day,
          createdAt: e.createdAt.toISOString(),
        })),
        productEvents: productEventRows.map(({ e, productName }) => ({
          kind: e.kind,
          productName,
          entranceType: e.entranceType,
          day: e.day,
          createdAt: e.createdAt.toISOString(),
        })),
        deviceReports: deviceRows.map((r) => ({
          provinceName: r.provinceName,
          cityName: r.cityName,
          ip: r.ip,
          adChannelCode: r.adChannelCode,
          createdAt: r.createdAt.toISOString(),
        })),
      },
    };
  }

  // -------------------------------------------------------------------------------------------
  // Lender callbacks and the console

  /**
   * The lender confirms (signed callback `data.deleted`) that it deleted the data of a deletion
   * notice. Idempotent; false when the notice is not this lender's deletion notice.
   */
  async confirmDeletion(partnerId: number, noticeKey: string, now = new Date()): Promise<boolean> {
    const [row] = await this.d.db
      .select({ id: partnerNotices.id, status: partnerNotices.status })
      .from(partnerNotices)
      .where(
        and(
          eq(partnerNotices.idempotencyKey, noticeKey),
          eq(partnerNotices.partnerId, partnerId),
          eq(partnerNotices.kind, 'deletion'),
        ),
      )
      .limit(1);
    if (!row) return false;
    if (row.status === 'confirmed') return true;
    await this.d.db
      .update(partnerNotices)
      .set({ status: 'confirmed', confirmedAt: now, lockedUntil: null, lastError: null, updatedAt: now })
      .where(and(eq(partnerNotices.id, row.id), ne(partnerNotices.status, 'confirmed')));
    return true;
  }
}
