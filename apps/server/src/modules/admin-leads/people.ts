import type {
  AdminAdReportingData,
  AdminRevealData,
  AdminUserDetail,
  AdminUserList,
  AdminUserListQuery,
  RevealField,
} from '@lm/shared/schemas/admin-leads';
import type { Actor } from '../../lib/actor.ts';
import { decryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import { maskIp } from '../privacy/rules.ts';
import { attemptItem, consentEvidence, iso, leadItem } from './lead-rows.ts';
import type { AdminPeopleRepository } from './people-repository.ts';
import {
  contactsOf,
  excludedWithNames,
  leadCountsByUser,
  maskContacts,
  maskDraft,
  shanghaiDayRange,
} from './rules.ts';

export interface AdminPeopleDeps {
  repo: AdminPeopleRepository;
  ring: KeyRing;
  phoneIndex(phone: string): string;
}

/**
 * The console's people (用户与线索): found by exact phone (blind index), their applications, offers, consents,
 * leads, notices and sessions, all masked; `reveal` decrypts one field for a staff member who gave a reason and
 * records who, which field, why and when — never the value.
 */
export class AdminPeopleService {
  constructor(private readonly d: AdminPeopleDeps) {}

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
    const { total, rows } = await this.d.repo.listForConsole(
      q,
      q.phone ? this.d.phoneIndex(q.phone) : null,
      shanghaiDayRange(q.from, q.to),
    );
    const ids = rows.map((r) => r.id);
    const [consentCounts, leadRows] = ids.length ? await this.d.repo.countsByUser(ids) : [[], []];
    const leadCounts = leadCountsByUser(leadRows);
    return {
      total,
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
    const u = await this.d.repo.findUser(userId);
    if (!u) throw appError('NOT_FOUND', '用户不存在');
    const [draft, credit, runs, consentRows, leadRows, noticeRows, sessionRows] =
      await this.d.repo.belongingsOf(userId);
    const runIds = runs.map((r) => r.id);
    const leadIds = leadRows.map((l) => l.id);
    const [offers, attempts] = await this.d.repo.offersAndAttempts(runIds, leadIds);
    const excludedIds = [
      ...new Set(runs.flatMap((r) => r.excluded.map((e) => Number(e.productId)).filter(Number.isInteger))),
    ];
    const names = await this.d.repo.productNames(excludedIds);

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
        adReportingObjectedAt: iso(u.adReportingObjectedAt),
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
        ...consentEvidence(c),
        offerId: c.offerId,
        productName,
        partnerName,
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
   * A person's objection to conversion reporting (隐私政策 第六条), received by phone or e-mail and recorded by
   * staff. Objecting stamps the time and, in the same transaction, ends their attribution as a cancellation
   * does (pending reports dropped, clicks unlinked); from then on nothing about them is reported and no new
   * click is credited to them. Withdrawing clears the time: later clicks count again, nothing is restored.
   * A repeat of the current state changes nothing and writes no audit entry. A cancelled person may be marked
   * too (their attribution already ended). Unknown person: NOT_FOUND.
   */
  async setAdReporting(actor: Actor, userId: number, objected: boolean): Promise<AdminAdReportingData> {
    return this.d.repo.transaction(async (tx) => {
      const u = await tx.lockAdReporting(userId);
      if (!u) throw appError('NOT_FOUND', '用户不存在');
      if ((u.adReportingObjectedAt !== null) === objected) {
        return { adReportingObjectedAt: iso(u.adReportingObjectedAt) };
      }
      const at = objected ? new Date() : null;
      await tx.setAdReportingObjectedAt(userId, at);
      if (objected) await tx.endAdAttribution(userId);
      await tx.recordAudit(actor, {
        action: 'ad-reporting',
        entity: 'user',
        entityId: userId,
        before: { adReportingObjectedAt: iso(u.adReportingObjectedAt) },
        after: { adReportingObjectedAt: iso(at) },
      });
      return { adReportingObjectedAt: iso(at) };
    });
  }

  /**
   * Decrypts one field of a person for the staff member acting, and writes the audit entry (who,
   * which field, the reason) in the same transaction. The value itself is never recorded or logged.
   */
  async reveal(actor: Actor, userId: number, field: RevealField, reason: string): Promise<AdminRevealData> {
    return this.d.repo.transaction(async (tx) => {
      const u = await tx.findUserPhone(userId);
      if (!u) throw appError('NOT_FOUND', '用户不存在');
      let out: AdminRevealData;
      if (field === 'mobile') {
        if (!u.mobileEnc) throw appError('NOT_FOUND', '该用户已注销，手机号已删除');
        out = { field, value: decryptField(this.d.ring, u.mobileEnc), contacts: null };
      } else if (field === 'contacts') {
        const dataEnc = await tx.creditProfileData(userId);
        const contacts = contactsOf(this.decryptJson(dataEnc)).filter((c) => c.name || c.phone);
        if (contacts.length === 0) throw appError('NOT_FOUND', '该用户没有填写紧急联系人');
        out = { field, value: null, contacts };
      } else {
        const dataEnc = await tx.draftData(userId);
        const value = this.decryptJson(dataEnc)?.[field];
        if (typeof value !== 'string' || !value) {
          throw appError(
            'NOT_FOUND',
            field === 'realName' ? '该用户没有填写真实姓名' : '该用户没有填写身份证号',
          );
        }
        out = { field, value, contacts: null };
      }
      await tx.recordAudit(actor, {
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
