/**
 * Channel costs and imported spend (issue 48.2, ADR 073), pure: which ended days a per-event cost is booked for
 * and what each costs, and how an ad platform's daily spend report is read and judged row by row.
 */
import { CHANNEL_COST_MODEL_LABELS, type ChannelCostModel } from '@lm/shared/ledger';
import { shanghaiMonthOf, yuanTextToFen } from '@lm/shared/money';
import { SPEND_MAX_FEN, SPEND_MAX_ROWS, type SpendRow } from '@lm/shared/schemas/spend-imports';
import { addDays, shanghaiDayStart } from '@lm/shared/time';
import { type CostRow, costAt } from '../ledger/rules.ts';
import { parseCsv } from '../outcomes/reconcile-rules.ts';

/** The models booked per event and day by the cost poster (rev_share is booked with the lead revenue). */
export const PER_EVENT_MODELS = ['cpc', 'cpa_register', 'cpa_lead'] as const;
export type PerEventModel = (typeof PER_EVENT_MODELS)[number];
export const isPerEvent = (m: ChannelCostModel): m is PerEventModel =>
  (PER_EVENT_MODELS as readonly string[]).includes(m);

/** How far back the poster looks for ended days not booked yet. */
export const POSTING_MAX_DAYS_BACK = 62;

/** Ledger references of channel costs (unique per kind with the ledger's other references). */
export const costRef = {
  daily: (model: PerEventModel, channelId: number, day: string) => `${model}:${channelId}:${day}`,
  spend: (channelId: number, day: string, importId: number) => `spend:${channelId}:${day}:${importId}`,
  /** The prefix of every spend entry of a channel-day (what was booked for it so far). */
  spendPrefix: (channelId: number, day: string) => `spend:${channelId}:${day}:`,
};

/**
 * The ended Shanghai days the poster considers on `today`: yesterday back to `maxBack` days ago, oldest first.
 */
export function endedDays(today: string, maxBack = POSTING_MAX_DAYS_BACK): string[] {
  const out: string[] = [];
  for (let n = maxBack; n >= 1; n--) out.push(addDays(today, -n));
  return out;
}

/** What the daily rule needs of a cost row. */
export interface ChannelCostRow extends CostRow {
  model: ChannelCostModel;
  amountFen: number | null;
}

/** Newest first: the latest effective day first, then the later-added. */
export function byNewest<T extends CostRow>(a: T, b: T): number {
  return b.effectiveFrom.getTime() - a.effectiveFrom.getTime() || b.id - a.id;
}

/** One day's per-event cost of a channel, to book. */
export interface DailyCost {
  model: PerEventModel;
  day: string;
  reference: string;
  /** The events of the day (clicks, registrations or leads). */
  quantity: number;
  /** quantity × the row's fen. */
  amountFen: number;
  priceId: number;
  eventAt: Date;
  eventMonth: string;
}

/**
 * The per-event costs of one channel over `days`: for each day the row in force at its start (00:00 Shanghai);
 * when that row is per-event (cpc, cpa_register, cpa_lead), the day's count of its events × its fen. Days with
 * no count (0 events), under another model or no row, and those already `booked` (by reference) give nothing.
 */
export function dailyCosts(
  channelId: number,
  rows: readonly ChannelCostRow[],
  days: readonly string[],
  counts: Readonly<Record<PerEventModel, ReadonlyMap<string, number>>>,
  booked: ReadonlySet<string>,
): DailyCost[] {
  const out: DailyCost[] = [];
  for (const day of days) {
    const start = shanghaiDayStart(day);
    const row = costAt(rows, start);
    if (!row || !isPerEvent(row.model)) continue;
    const reference = costRef.daily(row.model, channelId, day);
    if (booked.has(reference)) continue;
    const quantity = counts[row.model].get(day) ?? 0;
    if (quantity <= 0) continue;
    out.push({
      model: row.model,
      day,
      reference,
      quantity,
      amountFen: quantity * (row.amountFen ?? 0),
      priceId: row.id,
      eventAt: start,
      eventMonth: shanghaiMonthOf(start),
    });
  }
  return out;
}

// --- the spend file ---------------------------------------------------------------------------------------

/** The file as a whole cannot be read (no header, a quote left open, a missing column …): refused in words. */
export class SpendFileError extends Error {}

export type SpendColumn = 'date' | 'channelCode' | 'yuan' | 'fen';

/** A header as compared: no spaces, `_` or `-`, lower case, full-width brackets as ASCII. */
const headerKey = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '')
    .replace(/（/g, '(')
    .replace(/）/g, ')');

const HEADER_ALIASES: Record<string, SpendColumn> = {
  date: 'date',
  day: 'date',
  日期: 'date',
  adchannelcode: 'channelCode',
  channelcode: 'channelCode',
  渠道编码: 'channelCode',
  渠道码: 'channelCode',
  渠道代码: 'channelCode',
  spendyuan: 'yuan',
  spend: 'yuan',
  'spend(yuan)': 'yuan',
  '消耗(元)': 'yuan',
  消耗: 'yuan',
  '金额(元)': 'yuan',
  '花费(元)': 'yuan',
  spendfen: 'fen',
  'spend(fen)': 'fen',
  '消耗(分)': 'fen',
  '金额(分)': 'fen',
};

const COLUMN_TEXT: Record<SpendColumn, string> = {
  date: 'date（日期）',
  channelCode: 'adChannelCode（渠道编码）',
  yuan: 'spend_yuan（消耗(元)）',
  fen: 'spend_fen（消耗(分)）',
};

/** Where each column is in the header row; throws on a missing or repeated column, or both amount columns. */
export function readSpendHeader(cells: readonly string[]): Partial<Record<SpendColumn, number>> {
  const at: Partial<Record<SpendColumn, number>> = {};
  cells.forEach((raw, index) => {
    const column = HEADER_ALIASES[headerKey(raw)];
    if (!column) return;
    if (at[column] !== undefined) throw new SpendFileError(`表头中 ${COLUMN_TEXT[column]} 出现了两次`);
    at[column] = index;
  });
  const missing = (['date', 'channelCode'] as const)
    .filter((c) => at[c] === undefined)
    .map((c) => COLUMN_TEXT[c]);
  if (at.yuan === undefined && at.fen === undefined)
    missing.push('消耗金额列 spend_yuan（消耗(元)）或 spend_fen（消耗(分)）');
  if (missing.length)
    throw new SpendFileError(
      `第一行须为表头，缺少 ${missing.join('、')}（表头示例：date,adChannelCode,spend_yuan）`,
    );
  if (at.yuan !== undefined && at.fen !== undefined)
    throw new SpendFileError('表头中同时有以元和以分为单位的消耗列：请只保留一列');
  return at;
}

/** `2026-12-05`, `2026/12/5`, `2026.12.5`, `20261205` → `2026-12-05`; null when it is not a calendar day. */
export function parseSpendDay(text: string): string | null {
  const s = text.trim();
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (!m) return null;
  const day = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day ? day : null;
}

/** An amount in fen as written: a whole non-negative number (`12345`, `12,345`); the reason otherwise. */
export function parseFen(text: string): { fen: number } | { problem: string } {
  const shown = text.trim();
  let s = shown;
  if (s.startsWith('-')) return { problem: `消耗「${shown}」不能为负数` };
  if (/^\d{1,3}(,\d{3})+$/.test(s)) s = s.replace(/,/g, '');
  if (/^\d+\.\d*$/.test(s) && !/^\d+\.0*$/.test(s))
    return { problem: `消耗「${shown}」以分为单位，须为整数` };
  s = s.replace(/\.0*$/, '');
  if (!/^\d+$/.test(s)) return { problem: `消耗「${shown}」不是数字（以分为单位的整数，如 1234567）` };
  const fen = BigInt(s);
  if (fen > BigInt(SPEND_MAX_FEN)) return { problem: `消耗「${shown}」过大` };
  return { fen: Number(fen) };
}

/** A data row as read from the file: its cells for the columns, not yet judged. */
export interface SpendFileRow {
  line: number;
  date: string;
  channelCode: string;
  amount: string;
  unit: 'yuan' | 'fen';
}

/** The file's data rows (header required, blank lines skipped). Throws `SpendFileError` when unreadable. */
export function readSpendFile(csv: string): SpendFileRow[] {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(csv).filter((r) => r.cells.some((c) => c.trim() !== ''));
  } catch (err) {
    throw new SpendFileError((err as Error).message);
  }
  const [header, ...data] = records;
  if (!header) throw new SpendFileError('消耗文件是空的');
  if (data.length > SPEND_MAX_ROWS)
    throw new SpendFileError(
      `消耗文件有 ${data.length} 行，最多 ${SPEND_MAX_ROWS} 行：请按日期拆分后分别导入`,
    );
  const at = readSpendHeader(header.cells);
  const unit = at.yuan !== undefined ? 'yuan' : 'fen';
  const amountAt = (at.yuan ?? at.fen) as number;
  const cell = (cells: string[], i: number | undefined) => (i === undefined ? '' : (cells[i] ?? '').trim());
  return data.map((r) => ({
    line: r.line,
    date: cell(r.cells, at.date),
    channelCode: cell(r.cells, at.channelCode),
    amount: cell(r.cells, amountAt),
    unit,
  }));
}

/** What judging a row needs to know of a channel. */
export interface KnownChannel {
  id: number;
  code: string;
  costs: readonly ChannelCostRow[];
}

/** A judged row, with the channel's id when accepted. */
export type JudgedSpendRow = SpendRow & { channelId: number | null };

/**
 * Each row accepted or rejected with its reason, in words: a date that cannot be read or a day after `today`
 * (Shanghai), an empty or unknown channel code, an amount that cannot be read (negative, more than two decimals in
 * yuan, not a whole number in fen, too large), a channel whose cost model in force that day is per-event or a
 * revenue share (its cost is not the spend), and a (day, channel) given twice in the file (every such row: which
 * figure is right is for the file's author to say). A channel with no cost row or with `spend` in force takes it.
 */
export function judgeSpendRows(
  rows: readonly SpendFileRow[],
  today: string,
  channels: ReadonlyMap<string, KnownChannel>,
): JudgedSpendRow[] {
  const judged: JudgedSpendRow[] = rows.map((r) => {
    const day = parseSpendDay(r.date);
    const code = r.channelCode === '' ? null : r.channelCode;
    const amount =
      r.unit === 'yuan' ? yuanTextToFen(r.amount, { maxFen: SPEND_MAX_FEN }) : parseFen(r.amount);
    const amountFen = 'fen' in amount ? amount.fen : null;
    const base = { line: r.line, day, channelCode: code, amountFen, channelId: null };
    const reject = (reason: string): JudgedSpendRow => ({ ...base, status: 'rejected', reason });
    if (r.date === '') return reject('日期为空');
    if (!day) return reject(`日期「${r.date}」无法识别（如 2026-12-05）`);
    if (day > today) return reject(`日期 ${day} 是未来的日期（北京时间今天是 ${today}）`);
    if (!code) return reject('渠道编码为空');
    const channel = channels.get(code);
    if (!channel) return reject(`渠道编码「${code}」不存在`);
    if (r.amount === '') return reject('消耗为空');
    if ('problem' in amount) return reject(amount.problem);
    const inForce = costAt(channel.costs, shanghaiDayStart(day));
    if (inForce && inForce.model !== 'spend')
      return reject(`该渠道当日按「${CHANNEL_COST_MODEL_LABELS[inForce.model]}」计费，消耗不计入成本`);
    return { ...base, channelId: channel.id, status: 'ok' };
  });
  const linesOf = new Map<string, number[]>();
  for (const r of judged) {
    if (r.status !== 'ok') continue;
    const key = `${r.day}|${r.channelId}`;
    linesOf.set(key, [...(linesOf.get(key) ?? []), r.line]);
  }
  return judged.map((r) => {
    if (r.status !== 'ok') return r;
    const lines = linesOf.get(`${r.day}|${r.channelId}`) ?? [];
    if (lines.length < 2) return r;
    const others = lines.filter((l) => l !== r.line).join('、');
    return {
      ...r,
      channelId: null,
      status: 'rejected',
      reason: `与第 ${others} 行重复：同一文件中同一渠道同一天只能有一行消耗`,
    };
  });
}

/** What to book for a channel-day imported with `figureFen` when `bookedFen` is booked already: the difference. */
export function spendDelta(figureFen: number, bookedFen: number): number {
  return figureFen - bookedFen;
}
