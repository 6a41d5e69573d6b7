import { randomUUID } from 'node:crypto';
import type { OutcomeStatus } from '@lm/shared/outcomes';
import type {
  ApplicationList,
  DataSharingEntry,
  LeadStatusValue,
  SessionItem,
} from '@lm/shared/schemas/privacy';
import type { Db } from '../../db/client.ts';
import { decryptField, encryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import { type NoticeInsert, PrivacyRepository } from './repository.ts';
import {
  addWorkingDays,
  deviceSummary,
  groupSharing,
  maskIp,
  planWithdrawal,
  recordOutcome,
  type SharingRow,
} from './rules.ts';

export interface PrivacyDeps {
  repo: PrivacyRepository;
  ring: KeyRing;
  /** Working days a lender has to delete the data after a cancellation (default 15). */
  deletionDeadlineWorkingDays: number;
  /**
   * Who handles the person's data: the operator of the channel they came through (ADR 057), the configured
   * one without a channel or a record.
   */
  operatorOf(adChannelCode: string | null): Promise<{ name: string; email: string; servicePhone: string }>;
}

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
    const rows = await this.d.repo.listSessions(userId, SESSION_LIST_LIMIT);
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
    return this.d.repo.revokeOpenSessions(userId, new Date(), 'logout');
  }

  // -------------------------------------------------------------------------------------------
  // Application record

  async applications(userId: number, page: number, pageSize: number): Promise<ApplicationList> {
    const outcomeOf = (o: {
      leadStatus: LeadStatusValue | null;
      leadOutcome: OutcomeStatus | null;
      limitFen: number | null;
      amountFen: number | null;
      reportedAt: Date | null;
    }) => {
      const status = recordOutcome(o.leadStatus ? { status: o.leadStatus, outcome: o.leadOutcome } : null);
      return status === null
        ? null
        : { status, limitFen: o.limitFen, amountFen: o.amountFen, reportedAt: iso(o.reportedAt) };
    };
    const total = await this.d.repo.countRuns(userId);
    const runs = await this.d.repo.runsPage(userId, pageSize, (page - 1) * pageSize);
    const offers = await this.d.repo.offersOfRuns(
      userId,
      runs.map((r) => r.id),
    );
    return {
      total,
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
            outcome: outcomeOf(o),
          })),
      })),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Who has my data

  async dataSharing(userId: number, partnerId?: number): Promise<DataSharingEntry[]> {
    const rows = await this.d.repo.sharingRows(userId, partnerId);
    const notices = await this.d.repo.sharingNotices(userId, partnerId);
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
    await this.d.repo.transaction(async (tx) => {
      // Serialises with the person's other withdrawals and with cancellation.
      await tx.lockUser(userId);
      if (!(await tx.hasConsented(userId, partnerId))) {
        throw appError('NOT_FOUND', '您没有向该机构授权过个人信息');
      }
      const newly = await tx.withdrawConsents(userId, now, partnerId);
      if (newly.length === 0) return;
      const plan = planWithdrawal(await tx.leadsOfConsentsForUpdate(newly));
      await tx.stopLeads(plan.stop, now);
      if (plan.tell.length > 0) {
        await tx.insertNotices([
          {
            userId,
            partnerId,
            kind: 'withdrawal',
            leadKeys: plan.tell,
            idempotencyKey: randomUUID(),
            status: 'pending',
            dueAt: null,
            requestId,
          },
        ]);
      }
    });
    const [entry] = await this.dataSharing(userId, partnerId);
    return entry!;
  }

  /**
   * Part of the cancellation transaction (AuthService.cancel): every consent still in force is
   * withdrawn, every pending lead stops, each lender that received (or may have received) data gets
   * one `deletion` notice due in `deletionDeadlineWorkingDays` working days, and the copies of the
   * person's answers kept with the matches and leads are erased (the consents, agreement hashes and
   * field names stay as evidence).
   */
  async onCancellation(
    handle: Db,
    userId: number,
    now: Date,
    requestId: string | null = null,
  ): Promise<{ notices: number }> {
    const tx = new PrivacyRepository(handle);
    await tx.withdrawConsents(userId, now);
    const all = await tx.leadsOfUserForUpdate(userId);
    const byPartner = new Map<number, typeof all>();
    for (const l of all) byPartner.set(l.partnerId, [...(byPartner.get(l.partnerId) ?? []), l]);
    const dueAt = addWorkingDays(now, this.d.deletionDeadlineWorkingDays);
    const stop: number[] = [];
    const notices: NoticeInsert[] = [];
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
    await tx.stopLeads(stop, now);
    await tx.insertNotices(notices);
    // The answers copied into each lead and match run (name, ID number, phone …) go too.
    await tx.eraseAnswerCopies(userId, encryptField(this.d.ring, '{}'), now);
    return { notices: notices.length };
  }

  // -------------------------------------------------------------------------------------------
  // Export

  /** Everything the service holds about the person, decrypted (it is their own data). */
  async exportData(userId: number, now = new Date()) {
    const user = await this.d.repo.userById(userId);
    if (!user) throw appError('NOT_FOUND', '账号不存在');
    const decryptJson = (enc: string | null): unknown => {
      if (!enc) return null;
      try {
        return JSON.parse(decryptField(this.d.ring, enc));
      } catch {
        return '（无法解密）';
      }
    };

    const kept = await this.d.repo.exportRows(userId, EXPORT_EVENT_LIMIT);

    return {
      exportedAt: now.toISOString(),
      note: '这是您在本平台的全部个人信息副本，请妥善保管，不要发送给他人。',
      operator: await this.d.operatorOf(user.adChannelCode),
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
      sessions: kept.sessionRows.map((s) => ({
        id: s.id,
        createdAt: s.createdAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        revokedAt: iso(s.revokedAt),
        revokeReason: s.revokeReason,
        ip: s.ip,
        userAgent: s.userAgent,
      })),
      applicationDraft: kept.draft
        ? {
            data: decryptJson(kept.draft.dataEnc),
            createdAt: kept.draft.createdAt.toISOString(),
            updatedAt: kept.draft.updatedAt.toISOString(),
          }
        : null,
      creditProfile: kept.credit
        ? {
            data: decryptJson(kept.credit.dataEnc),
            faceStatus: kept.credit.auditStatus,
            createdAt: kept.credit.createdAt.toISOString(),
            updatedAt: kept.credit.updatedAt.toISOString(),
          }
        : null,
      matchRuns: kept.runs.map((r) => ({
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        source: r.source,
        matchType: r.matchType,
        directMatchType: r.directMatchType,
        channelCode: r.adChannelCode,
        applyStatus: r.applyStatus,
        answersMatched: decryptJson(r.profileEnc),
        excluded: r.excluded,
        offers: kept.offers
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
      consents: kept.consentRows.map(({ consent: c, productName, lenderName, licenceNumber }) => ({
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
      leads: kept.leadRows.map(({ lead: l, productName, lenderName }) => ({
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
      partnerNotices: kept.noticeRows.map(({ notice: n, lenderName }) => ({
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
      uploadedFiles: kept.files.map((f) => ({
        key: f.key,
        folder: f.folder,
        contentType: f.contentType,
        sizeBytes: f.sizeBytes,
        createdAt: f.createdAt.toISOString(),
      })),
      faceChecks: kept.faces.map((f) => ({
        id: f.id,
        fileKey: f.fileKey,
        status: f.status,
        provider: f.provider,
        identityVerified: f.identityVerified,
        details: f.details,
        createdAt: f.createdAt.toISOString(),
      })),
      analytics: {
        events: kept.eventRows.map((e) => ({
          step: e.step,
          adChannelCode: e.adChannelCode,
          source: e.source,
          day: e.day,
          createdAt: e.createdAt.toISOString(),
        })),
        productEvents: kept.productEventRows.map(({ e, productName }) => ({
          kind: e.kind,
          productName,
          entranceType: e.entranceType,
          day: e.day,
          createdAt: e.createdAt.toISOString(),
        })),
        deviceReports: kept.deviceRows.map((r) => ({
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
    const row = await this.d.repo.findDeletionNotice(partnerId, noticeKey);
    if (!row) return false;
    if (row.status === 'confirmed') return true;
    await this.d.repo.confirmNotice(row.id, now);
    return true;
  }
}
