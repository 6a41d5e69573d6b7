/**
 * Monthly statements (issue 48.5, ADR 073), pure: a month's ledger entries summed per party, the counts of the
 * events they stand for, the CSV a finance team opens in Excel, and which month may be closed. A statement is
 * the sum of its entries by construction: `netFen` adds every entry of the party booked in the month.
 */
import {
  LEDGER_KIND_LABELS,
  type LedgerKind,
  PARTY_TYPE_LABELS,
  type PartyType,
  STATEMENT_STATUS_LABELS,
} from '@lm/shared/ledger';
import { fenToYuanText } from '@lm/shared/money';
import type { Party, Statement } from '@lm/shared/schemas/settlement';

/** What the statements read of an entry. */
export interface EntryFacts {
  kind: LedgerKind;
  partyType: PartyType;
  partyId: number;
  partyCode: string;
  amountFen: number;
  /** cpl / cpa / cps for lead revenue (and its reversal); a channel cost model otherwise. */
  model: string | null;
  /** A lender entry's channel (the person's ad channel); null for channel entries and unknown. */
  channelCode: string | null;
  /** When the event happened. */
  eventAt: Date;
  /** The month the event belongs to (a return: the month the lead was charged in). */
  eventMonth: string;
  /** The month it is booked in: later than `eventMonth` when that one was closed (the entry is "late"). */
  month: string;
}

/** A party's sums over its own entries of one month. */
export interface PartyTotals {
  partyType: PartyType;
  partyId: number;
  partyCode: string;
  leads: number;
  approved: number;
  funded: number;
  returned: number;
  entries: number;
  lateEntries: number;
  revenueFen: number;
  returnedFen: number;
  costFen: number;
  adjustmentFen: number;
  payoutFen: number;
  netFen: number;
}

/** What the people a channel brought did at lenders (lender entries carrying the channel's code). */
export interface ChannelVolume {
  leads: number;
  approved: number;
  funded: number;
  returned: number;
}

export const partyKey = (type: PartyType, id: number) => `${type}:${id}`;

function emptyTotals(e: Pick<EntryFacts, 'partyType' | 'partyId' | 'partyCode'>): PartyTotals {
  return {
    partyType: e.partyType,
    partyId: e.partyId,
    partyCode: e.partyCode,
    leads: 0,
    approved: 0,
    funded: 0,
    returned: 0,
    entries: 0,
    lateEntries: 0,
    revenueFen: 0,
    returnedFen: 0,
    costFen: 0,
    adjustmentFen: 0,
    payoutFen: 0,
    netFen: 0,
  };
}

/** Whether an entry was booked after its own month (that month was closed when it was posted). */
export function isLate(e: Pick<EntryFacts, 'eventMonth' | 'month'>): boolean {
  return e.eventMonth < e.month;
}

/** Counts one lead-revenue or return entry into event counts (by its model). */
function countEvent(into: ChannelVolume, e: Pick<EntryFacts, 'kind' | 'model'>): void {
  if (e.kind === 'lead_revenue') {
    if (e.model === 'cpl') into.leads++;
    else if (e.model === 'cpa') into.approved++;
    else if (e.model === 'cps') into.funded++;
  } else if (e.kind === 'return') into.returned++;
}

/**
 * Sums entries per party (its own entries only): counts of its events, the amount of each kind and the net,
 * which is the sum of every one of its entries. Counts: lead revenue by model (cpl a delivered lead, cpa an
 * approval, cps a funding), a return entry a returned lead.
 */
export function totalsByParty(entries: readonly EntryFacts[]): Map<string, PartyTotals> {
  const out = new Map<string, PartyTotals>();
  for (const e of entries) {
    const key = partyKey(e.partyType, e.partyId);
    let t = out.get(key);
    if (!t) {
      t = emptyTotals(e);
      out.set(key, t);
    }
    t.entries++;
    if (isLate(e)) t.lateEntries++;
    t.netFen += e.amountFen;
    countEvent(t, e);
    switch (e.kind) {
      case 'lead_revenue':
        t.revenueFen += e.amountFen;
        break;
      case 'return':
        t.returnedFen -= e.amountFen;
        break;
      case 'channel_cost':
        t.costFen += e.amountFen;
        break;
      case 'adjustment':
        t.adjustmentFen += e.amountFen;
        break;
      case 'payout':
        t.payoutFen -= e.amountFen;
        break;
    }
  }
  return out;
}

/** Per channel code: the lender events of the people it brought (no amounts: those are the lenders'). */
export function volumesByChannel(entries: readonly EntryFacts[]): Map<string, ChannelVolume> {
  const out = new Map<string, ChannelVolume>();
  for (const e of entries) {
    if (e.partyType !== 'lender' || !e.channelCode) continue;
    let v = out.get(e.channelCode);
    if (!v) {
      v = { leads: 0, approved: 0, funded: 0, returned: 0 };
      out.set(e.channelCode, v);
    }
    countEvent(v, e);
  }
  return out;
}

export interface StatementInputs {
  entries: readonly EntryFacts[];
  /** Every party that may appear, by `partyKey` (names; a party with entries but unknown is named by its code). */
  parties: ReadonlyMap<string, Party>;
  /** Parties listed even without entries (e.g. channels with clicks that month). */
  alsoListed: readonly string[];
  /** Per channel code: counted clicks and registrations of the Shanghai month. */
  traffic: ReadonlyMap<string, { clicks: number; registrations: number }>;
  status: Statement['status'];
}

/**
 * The month's statements: one per party with entries (and per party in `alsoListed`), lenders first then
 * channels, each by code. A lender's counts are its own events; a channel's are those of the people it brought
 * plus its traffic. Amounts are always present here (`withoutAmounts` strips them for a viewer).
 */
export function statementsOf(input: StatementInputs): Statement[] {
  const totals = totalsByParty(input.entries);
  const volumes = volumesByChannel(input.entries);
  const keys = new Set([...totals.keys(), ...input.alsoListed]);
  const out: Statement[] = [];
  for (const key of keys) {
    const t = totals.get(key);
    const known = input.parties.get(key);
    const [type, id] = key.split(':') as [PartyType, string];
    const party: Party = known ?? {
      type,
      id: Number(id),
      code: t?.partyCode ?? id,
      name: t?.partyCode ?? id,
    };
    const base = t ?? emptyTotals({ partyType: type, partyId: party.id, partyCode: party.code });
    const common = {
      party,
      entries: base.entries,
      lateEntries: base.lateEntries,
      adjustmentFen: base.adjustmentFen,
      payoutFen: base.payoutFen,
      netFen: base.netFen,
      status: input.status,
    };
    if (type === 'lender') {
      out.push({
        ...common,
        leads: base.leads,
        returned: base.returned,
        approved: base.approved,
        funded: base.funded,
        revenueFen: base.revenueFen,
        returnedFen: base.returnedFen,
        costFen: base.costFen,
      });
    } else {
      const v = volumes.get(party.code) ?? { leads: 0, approved: 0, funded: 0, returned: 0 };
      const traffic = input.traffic.get(party.code) ?? { clicks: 0, registrations: 0 };
      out.push({
        ...common,
        leads: v.leads,
        returned: v.returned,
        approved: v.approved,
        funded: v.funded,
        clicks: traffic.clicks,
        registrations: traffic.registrations,
        // A channel's own entries are costs, payouts and adjustments; lead revenue on its account is none.
        revenueFen: base.revenueFen,
        returnedFen: base.returnedFen,
        costFen: base.costFen,
      });
    }
  }
  return out.sort(
    (a, b) =>
      (a.party.type === b.party.type ? 0 : a.party.type === 'lender' ? -1 : 1) ||
      (a.party.code < b.party.code ? -1 : a.party.code > b.party.code ? 1 : 0),
  );
}

const AMOUNT_KEYS = [
  'revenueFen',
  'returnedFen',
  'costFen',
  'adjustmentFen',
  'payoutFen',
  'netFen',
] as const satisfies readonly (keyof Statement)[];

/** A statement without any amount field (a viewer's; issue 48.7 "viewer sees no amounts"). */
export function withoutAmounts(s: Statement): Statement {
  const out = { ...s };
  for (const k of AMOUNT_KEYS) delete out[k];
  return out;
}

/** The months an admin may close: those that have ended in Shanghai (before the current month). */
export function closeRefusal(month: string, currentMonth: string): string | null {
  if (month === currentMonth) return `${month} 是本月（北京时间），月份结束后才能关账`;
  if (month > currentMonth) return `${month} 尚未开始，只能关账已经结束的月份`;
  return null;
}

/** Why an adjustment may not be booked in `month` (null: it may). */
export function adjustmentMonthRefusal(month: string, currentMonth: string, closed: boolean): string | null {
  if (month > currentMonth) return `${month} 尚未开始，调整只能记入本月或之前未关账的月份`;
  if (closed) return `${month} 已关账，调整请记入未关账的月份（如本月）`;
  return null;
}

// --- CSV

/** A CSV cell: RFC 4180 quoting; text a spreadsheet would read as a formula gets an apostrophe. */
export function csvCell(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (/^(?:[\t\r]|\s*[=+\-@])/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const yuan = (fen: number | undefined) => (fen === undefined ? '' : fenToYuanText(fen));

/**
 * The month's statements as CSV (UTF-8 with a BOM so Excel reads the Chinese, CRLF lines): amounts in yuan
 * with two decimals; without `amounts` (a viewer) the amount columns are left out.
 */
export function statementsCsv(statements: readonly Statement[], amounts: boolean): string {
  const columns: [string, (s: Statement) => string | number | undefined][] = [
    ['类型', (s) => PARTY_TYPE_LABELS[s.party.type]],
    ['编码', (s) => s.party.code],
    ['名称', (s) => s.party.name],
    ['状态', (s) => STATEMENT_STATUS_LABELS[s.status]],
    ['点击', (s) => s.clicks],
    ['注册', (s) => s.registrations],
    ['线索', (s) => s.leads],
    ['退回', (s) => s.returned],
    ['授信', (s) => s.approved],
    ['放款', (s) => s.funded],
    ['分录数', (s) => s.entries],
  ];
  if (amounts)
    columns.push(
      ['线索收入（元）', (s) => yuan(s.revenueFen)],
      ['退回冲减（元）', (s) => yuan(s.returnedFen)],
      ['渠道成本（元）', (s) => yuan(s.costFen)],
      ['手工调整（元）', (s) => yuan(s.adjustmentFen)],
      ['结算付款（元）', (s) => yuan(s.payoutFen)],
      ['净额（元）', (s) => yuan(s.netFen)],
    );
  const lines = [columns.map(([t]) => csvCell(t)).join(',')];
  for (const s of statements) lines.push(columns.map(([, v]) => csvCell(v(s))).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The label of an entry's kind. */
export const kindLabel = (k: LedgerKind) => LEDGER_KIND_LABELS[k];
