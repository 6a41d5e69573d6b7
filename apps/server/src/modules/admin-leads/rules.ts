import { maskMiddle, maskName, maskPhone } from '@lm/shared/mask';
import { shanghaiDayBounds, shanghaiDayStart } from '@lm/shared/time';

/**
 * Pure rules of the console's people / leads / deliveries pages: masking of what the console shows,
 * Shanghai-day ranges of list filters, whether a dead letter may be sent again, and the per-partner
 * delivery summary.
 */

/** `from`/`to` (YYYY-MM-DD, Shanghai, both inclusive) → [start, end) instants. */
export function shanghaiDayRange(from?: string, to?: string): { start?: Date; end?: Date } {
  const out: { start?: Date; end?: Date } = {};
  if (from) out.start = shanghaiDayStart(from);
  if (to) out.end = shanghaiDayBounds(to).end;
  return out;
}

/** 110101199003074514 → 1101**********4514 (region and check digits kept, birth date hidden). */
export function maskIdentity(id: string): string {
  return maskMiddle(id, 4, 4);
}

/** Draft keys that hold personal data; every other answer is an option code or a city. */
const PERSONAL_DRAFT_KEYS = new Set(['realName', 'identity']);

export interface MaskedDraft {
  realNameMasked: string | null;
  identityMasked: string | null;
  answers: Record<string, string | number | boolean | null>;
}

/** The application draft as the console shows it: name and ID masked, other answers as given. */
export function maskDraft(draft: Record<string, unknown>): MaskedDraft {
  const answers: MaskedDraft['answers'] = {};
  for (const [k, v] of Object.entries(draft)) {
    if (PERSONAL_DRAFT_KEYS.has(k)) continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null) {
      answers[k] = v;
    }
  }
  const name = typeof draft.realName === 'string' && draft.realName ? draft.realName : null;
  const identity = typeof draft.identity === 'string' && draft.identity ? draft.identity : null;
  return {
    realNameMasked: name ? maskName(name) : null,
    identityMasked: identity ? maskIdentity(identity) : null,
    answers,
  };
}

export interface Contact {
  relationship: string;
  name: string;
  phone: string;
}

/** The contacts of a credit record (entries missing a field are kept blank). */
export function contactsOf(credit: Record<string, unknown> | null): Contact[] {
  const list = credit?.contacts;
  if (!Array.isArray(list)) return [];
  return list
    .filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null)
    .map((c) => ({
      relationship: typeof c.relationship === 'string' ? c.relationship : '',
      name: typeof c.name === 'string' ? c.name : '',
      phone: typeof c.phone === 'string' ? c.phone : '',
    }));
}

export function maskContacts(contacts: Contact[]) {
  return contacts.map((c) => ({
    relationship: c.relationship,
    nameMasked: c.name ? maskName(c.name) : '',
    phoneMasked: c.phone ? maskPhone(c.phone) : '',
  }));
}

/**
 * Why a lead may not go back to the delivery queue, or null when it may: only dead letters, and
 * never once the person withdrew the consent or cancelled the account (their data is gone and the
 * lender must not receive it).
 */
export function retryRefusal(lead: {
  status: string;
  consentWithdrawnAt: Date | null;
  userStatus: string;
}): string | null {
  if (lead.status !== 'dead') return '只有发送失败（死信）的线索可以重新发送';
  if (lead.userStatus !== 'active') return '用户已注销，线索不能再发送';
  if (lead.consentWithdrawnAt) return '用户已撤回授权，线索不能再发送';
  return null;
}

/** Why a lead may not be discarded, or null. */
export function discardRefusal(status: string): string | null {
  return status === 'dead' ? null : '只有发送失败（死信）的线索可以放弃';
}

export interface LeadCountRow {
  partnerId: number;
  status: string;
  n: number;
  dueNow: number;
  leased: number;
  deliveredToday: number;
  oldestPendingAt: Date | null;
}

export interface SummaryPartner {
  id: number;
  legalName: string;
  status: 'active' | 'suspended';
}

export interface LastAttempt {
  partnerId: number;
  at: Date;
  outcome: 'delivered' | 'duplicate' | 'retry' | 'dead';
  httpStatus: number | null;
  error: string | null;
}

/**
 * One row per partner: counts by status, due / leased pending leads, delivered today, the age of
 * the oldest pending lead and the last attempt. Partners with dead letters come first.
 */
export function deliverySummary(
  partnerRows: SummaryPartner[],
  counts: LeadCountRow[],
  last: LastAttempt[],
  now: Date,
) {
  const list = partnerRows.map((p) => {
    const mine = counts.filter((c) => c.partnerId === p.id);
    const of = (status: string) => mine.filter((c) => c.status === status).reduce((s, c) => s + c.n, 0);
    const pending = mine.filter((c) => c.status === 'pending');
    const oldest = pending
      .map((c) => c.oldestPendingAt)
      .filter((d): d is Date => d !== null)
      .sort((a, b) => a.getTime() - b.getTime())[0];
    const la = last.find((l) => l.partnerId === p.id);
    return {
      partnerId: p.id,
      partnerName: p.legalName,
      partnerStatus: p.status,
      pending: of('pending'),
      dueNow: pending.reduce((s, c) => s + c.dueNow, 0),
      leased: pending.reduce((s, c) => s + c.leased, 0),
      deliveredToday: mine.reduce((s, c) => s + c.deliveredToday, 0),
      dead: of('dead'),
      discarded: of('discarded'),
      awaitingCallback: of('awaiting_callback'),
      oldestPendingAt: oldest ? oldest.toISOString() : null,
      oldestPendingAgeSeconds: oldest
        ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000))
        : null,
      lastAttempt: la
        ? { at: la.at.toISOString(), outcome: la.outcome, httpStatus: la.httpStatus, error: la.error }
        : null,
    };
  });
  return list.sort(
    (a, b) => b.dead - a.dead || b.pending - a.pending || a.partnerName.localeCompare(b.partnerName, 'zh-CN'),
  );
}

/** Excluded products of a match run with their reason texts (product names looked up). */
export function excludedWithNames(
  excluded: { productId: string; reasons: { code: string; text: string }[] }[],
  names: Map<string, string>,
) {
  return excluded.map((e) => ({
    productId: e.productId,
    productName: names.get(e.productId) ?? null,
    reasons: e.reasons.map((r) => r.text),
  }));
}

/** Lead counts by status of each person: {userId → {status → n}}. */
export function leadCountsByUser(rows: { userId: number; status: string; n: number }[]) {
  const out = new Map<number, Record<string, number>>();
  for (const r of rows) {
    const m = out.get(r.userId) ?? {};
    m[r.status] = (m[r.status] ?? 0) + r.n;
    out.set(r.userId, m);
  }
  return out;
}
