/**
 * Pure rules of the privacy module (docs/privacy.md): deletion deadlines in working days
 * (Asia/Shanghai), masking of session details, which leads a withdrawal stops and which the lender
 * must be told about, the outcome of a notice delivery, the "who has my data" aggregation.
 */

import type { OutcomeStatus } from '@lm/shared/outcomes';
import { SHAREABLE_FIELD_LABELS } from '@lm/shared/schemas/matching';
import type { LeadStatusValue, NoticeKind, NoticeStatus } from '@lm/shared/schemas/privacy';
import { shanghaiCompactDate, shanghaiDayNumber, startOfShanghaiDayNumber } from '@lm/shared/time';

/** 0 Sunday … 6 Saturday, of a Shanghai day number (1970-01-01 was a Thursday). */
function weekdayOf(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

/** Monday–Friday. Statutory holidays (and make-up working Saturdays) are not modelled. */
export function isWorkingDay(dayNumber: number): boolean {
  const wd = weekdayOf(dayNumber);
  return wd !== 0 && wd !== 6;
}

/** The instant a Shanghai day (by number) ends, i.e. the next day's 00:00 Asia/Shanghai. */
function endOfDay(dayNumber: number): Date {
  return startOfShanghaiDayNumber(dayNumber + 1);
}

/**
 * The deadline `days` working days after `from`: the end (24:00 Asia/Shanghai) of the `days`-th
 * working day after the Shanghai calendar day of `from` — the request day itself never counts, and
 * Saturdays and Sundays are skipped. A request on Friday with 1 working day is due at the end of
 * Monday. Holidays are not modelled, so the deadline is never later than the legal one (counting only
 * weekends gives an earlier, stricter date). `days` = 0 → the end of the request day.
 */
export function addWorkingDays(from: Date, days: number): Date {
  if (!Number.isInteger(days) || days < 0) throw new RangeError('days must be a non-negative integer');
  let day = shanghaiDayNumber(from);
  let left = days;
  while (left > 0) {
    day += 1;
    if (isWorkingDay(day)) left -= 1;
  }
  return endOfDay(day);
}

/**
 * Working days from `now` to `dueAt` (Shanghai days, weekends skipped): how many working days after
 * today up to and including the due day; 0 on the due day; negative once overdue (minus the working
 * days that have started since the due day, at least -1 once `dueAt` has passed).
 */
export function workingDaysLeft(now: Date, dueAt: Date): number {
  const today = shanghaiDayNumber(now);
  // dueAt is the end of the due day (exclusive): the due day is the one just before it.
  const dueDay = shanghaiDayNumber(new Date(dueAt.getTime() - 1));
  if (now.getTime() >= dueAt.getTime()) {
    let n = 0;
    for (let d = dueDay + 1; d <= today; d++) if (isWorkingDay(d)) n += 1;
    return -Math.max(1, n);
  }
  let n = 0;
  for (let d = today + 1; d <= dueDay; d++) if (isWorkingDay(d)) n += 1;
  return n;
}

/** A notice is overdue when its deadline has passed and the lender has not confirmed. */
export function isOverdue(
  notice: { status: NoticeStatus; dueAt: Date | null; confirmedAt: Date | null },
  now: Date,
): boolean {
  if (!notice.dueAt || notice.status === 'confirmed') return false;
  return now.getTime() >= notice.dueAt.getTime();
}

/** YYYYMMDD of the Shanghai day of `at`: the export file is `my-data-YYYYMMDD.json`. */
export function exportFileName(at: Date): string {
  return `my-data-${shanghaiCompactDate(at)}.json`;
}

/** "113.88.12.7" → "113.88.*.*"; IPv6 keeps its first two groups; null/unknown → null. */
export function maskIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/i.exec(ip.trim());
  if (v4) return `${v4[1]}.${v4[2]}.*.*`;
  if (ip.includes(':')) {
    const groups = ip.trim().split(':').filter(Boolean);
    if (groups.length === 0) return '*';
    return `${groups.slice(0, 2).join(':')}:*`;
  }
  return '*';
}

/** A short Chinese summary of a user agent: "iPhone · Safari", "华为手机 · 微信", "未知设备". */
export function deviceSummary(ua: string | null | undefined): string {
  if (!ua) return '未知设备';
  const s = ua;
  let device: string | null = null;
  if (/iPhone/i.test(s)) device = 'iPhone';
  else if (/iPad/i.test(s)) device = 'iPad';
  else if (/HarmonyOS|OpenHarmony/i.test(s)) device = '鸿蒙设备';
  else if (/HUAWEI|HONOR|; (?:[A-Z]{3}-[A-Z]{2}\d{2})/i.test(s)) device = '华为手机';
  else if (/\b(?:MI |Redmi|XiaoMi)/i.test(s)) device = '小米手机';
  else if (/\bOPPO\b|\bPB[A-Z]M\d/i.test(s)) device = 'OPPO 手机';
  else if (/\bvivo\b|\bV\d{4}[A-Z]{1,2}\b/i.test(s)) device = 'vivo 手机';
  else if (/SM-[A-Z]\d|Samsung/i.test(s)) device = '三星手机';
  else if (/Android/i.test(s)) device = '安卓手机';
  else if (/Windows/i.test(s)) device = 'Windows 电脑';
  else if (/Macintosh|Mac OS X/i.test(s)) device = 'Mac 电脑';
  else if (/Linux/i.test(s)) device = 'Linux 电脑';

  let app: string | null = null;
  if (/MicroMessenger/i.test(s)) app = '微信';
  else if (/AlipayClient/i.test(s)) app = '支付宝';
  else if (/\bQQ\//i.test(s)) app = 'QQ';
  else if (/DingTalk/i.test(s)) app = '钉钉';
  else if (/Weibo/i.test(s)) app = '微博';
  else if (/UCBrowser/i.test(s)) app = 'UC 浏览器';
  else if (/QQBrowser/i.test(s)) app = 'QQ 浏览器';
  else if (/HuaweiBrowser/i.test(s)) app = '华为浏览器';
  else if (/MiuiBrowser/i.test(s)) app = '小米浏览器';
  else if (/Edg\//i.test(s)) app = 'Edge';
  else if (/Firefox|FxiOS/i.test(s)) app = 'Firefox';
  else if (/Chrome|CriOS/i.test(s)) app = 'Chrome';
  else if (/Safari/i.test(s)) app = 'Safari';

  if (device && app) return `${device} · ${app}`;
  return device ?? app ?? '未知设备';
}

/** Lead states in which the lender has (or may have) the person's data. */
const LEFT_STATUSES: ReadonlySet<LeadStatusValue> = new Set(['delivered', 'redirect', 'awaiting_callback']);

export interface LeadForWithdrawal {
  id: number;
  key: string;
  status: LeadStatusValue;
  /** Delivery attempts started so far (counted at claim time). */
  attempts: number;
}

/**
 * What withdrawing (or cancelling) does to a set of leads: `stop` — still `pending`, becomes
 * `withdrawn` so the worker never sends it (again); `tell` — idempotency keys of the leads the lender
 * has or may have: already left (delivered / redirect / awaiting callback), or a delivery was attempted
 * (a pending retry or a dead lead may have reached the lender before its answer was lost).
 */
export function planWithdrawal(items: readonly LeadForWithdrawal[]): { stop: number[]; tell: string[] } {
  const stop: number[] = [];
  const tell: string[] = [];
  for (const l of items) {
    if (l.status === 'pending') stop.push(l.id);
    if (LEFT_STATUSES.has(l.status) || (l.attempts > 0 && (l.status === 'pending' || l.status === 'dead'))) {
      tell.push(l.key);
    }
  }
  return { stop, tell };
}

export type NoticeOutcome = 'sent' | 'confirmed' | 'retry';

/**
 * The result of posting a notice: 2xx → `sent`; for a deletion, an answer `{"deleted": true}` (or
 * `{"data": {"deleted": true}}`) → `confirmed` at once. A withdrawal is acknowledged by any 2xx (it
 * stays `sent`: nothing further is expected of the lender). 409 (the lender already has this notice)
 * counts as `sent`. Anything else → retry.
 */
export function noticeOutcome(
  kind: NoticeKind,
  httpStatus: number,
  responseText: string | null,
): NoticeOutcome {
  if (httpStatus === 409) return 'sent';
  if (httpStatus < 200 || httpStatus >= 300) return 'retry';
  if (kind === 'deletion' && answersDeleted(responseText)) return 'confirmed';
  return 'sent';
}

function answersDeleted(text: string | null): boolean {
  if (!text) return false;
  try {
    const j = JSON.parse(text) as { deleted?: unknown; data?: { deleted?: unknown } };
    return j.deleted === true || j.data?.deleted === true;
  } catch {
    return false;
  }
}

/** The JSON a lender receives for a notice. */
export function noticePayload(n: {
  kind: NoticeKind;
  key: string;
  leadKeys: string[];
  createdAt: Date;
  dueAt: Date | null;
}) {
  return {
    type: n.kind === 'withdrawal' ? ('consent.withdrawn' as const) : ('data.deletion_requested' as const),
    noticeId: n.key,
    leadIds: n.leadKeys,
    requestedAt: n.createdAt.toISOString(),
    dueAt: n.dueAt ? n.dueAt.toISOString() : null,
  };
}

/** Chinese label of a form field key ("realName" → "姓名"); unknown keys are shown as is. */
export function fieldLabel(key: string): string {
  return (SHAREABLE_FIELD_LABELS as Record<string, string>)[key] ?? key;
}

export interface SharingRow {
  partnerId: number;
  lenderName: string;
  licenceNumber: string;
  productName: string;
  consentedAt: Date;
  fields: string[];
  withdrawnAt: Date | null;
  lead: { status: LeadStatusValue; deliveredAt: Date | null; updatedAt: Date; attempts: number } | null;
}

export interface SharingNotice {
  partnerId: number;
  kind: NoticeKind;
  status: NoticeStatus;
  dueAt: Date | null;
  confirmedAt: Date | null;
  createdAt: Date;
  id: number;
}

/**
 * "Who has my data": one entry per lender the person consented to, newest consent first. `fields` is
 * the union of the consented fields (in the order first seen), `lastSharedAt` the latest time data
 * left for the lender (delivery, redirect or callback hand-over), `withdrawn` when every consent to the
 * lender is withdrawn, `notice` the newest notice to it.
 */
export function groupSharing(rows: readonly SharingRow[], notices: readonly SharingNotice[]) {
  const byPartner = new Map<number, SharingRow[]>();
  for (const r of rows) {
    const list = byPartner.get(r.partnerId) ?? [];
    list.push(r);
    byPartner.set(r.partnerId, list);
  }
  const latestNotice = new Map<number, SharingNotice>();
  for (const n of notices) {
    const cur = latestNotice.get(n.partnerId);
    if (!cur || n.createdAt > cur.createdAt || (+n.createdAt === +cur.createdAt && n.id > cur.id)) {
      latestNotice.set(n.partnerId, n);
    }
  }
  const entries = [...byPartner.entries()].map(([partnerId, list]) => {
    const sorted = [...list].sort((a, b) => a.consentedAt.getTime() - b.consentedAt.getTime());
    const first = sorted[0]!;
    const fields: string[] = [];
    for (const r of sorted) for (const f of r.fields) if (!fields.includes(f)) fields.push(f);
    const products: string[] = [];
    for (const r of sorted) if (!products.includes(r.productName)) products.push(r.productName);
    let lastSharedAt: Date | null = null;
    for (const r of sorted) {
      if (!r.lead || !LEFT_STATUSES.has(r.lead.status)) continue;
      const at = r.lead.deliveredAt ?? (r.lead.status === 'delivered' ? r.lead.updatedAt : r.consentedAt);
      if (!lastSharedAt || at > lastSharedAt) lastSharedAt = at;
    }
    const withdrawn = sorted.every((r) => r.withdrawnAt !== null);
    let withdrawnAt: Date | null = null;
    if (withdrawn) {
      for (const r of sorted) if (!withdrawnAt || r.withdrawnAt! > withdrawnAt) withdrawnAt = r.withdrawnAt;
    }
    const notice = latestNotice.get(partnerId);
    return {
      partnerId,
      lenderName: first.lenderName,
      licenceNumber: first.licenceNumber,
      products,
      fields,
      fieldLabels: fields.map(fieldLabel),
      firstConsentAt: first.consentedAt.toISOString(),
      lastSharedAt: lastSharedAt ? lastSharedAt.toISOString() : null,
      leads: [...sorted].reverse().map((r) => ({
        productName: r.productName,
        consentedAt: r.consentedAt.toISOString(),
        status: r.lead?.status ?? ('withdrawn' as LeadStatusValue),
        deliveredAt: r.lead?.deliveredAt ? r.lead.deliveredAt.toISOString() : null,
      })),
      withdrawn,
      withdrawnAt: withdrawnAt ? withdrawnAt.toISOString() : null,
      notice: notice
        ? {
            kind: notice.kind,
            status: notice.status,
            dueAt: notice.dueAt ? notice.dueAt.toISOString() : null,
            confirmedAt: notice.confirmedAt ? notice.confirmedAt.toISOString() : null,
          }
        : null,
      _latest: sorted[sorted.length - 1]!.consentedAt.getTime(),
    };
  });
  entries.sort((a, b) => b._latest - a._latest || a.partnerId - b.partnerId);
  return entries.map(({ _latest, ...e }) => e);
}

/** Lead statuses in which the person's data went to the lender (sent, handed over on its page, or awaiting its call). */
const WENT_TO_LENDER: ReadonlySet<LeadStatusValue> = new Set(['delivered', 'redirect', 'awaiting_callback']);

/**
 * A lender's outcome as the person's application record shows it (issue 47.6): what the lender reported, or
 * `pending` (申请中) while it has reported nothing about a lead it got; null for an offer whose data never went
 * to the lender (no consent, not sent yet, failed, withdrawn) — unless the lender reported on it anyway.
 */
export function recordOutcome(
  lead: { status: LeadStatusValue; outcome: OutcomeStatus | null } | null,
): OutcomeStatus | 'pending' | null {
  if (!lead) return null;
  if (lead.outcome) return lead.outcome;
  return WENT_TO_LENDER.has(lead.status) ? 'pending' : null;
}
