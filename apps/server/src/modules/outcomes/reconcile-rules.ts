/**
 * Reconciliation of a lender's outcomes (issue 47.4), pure: reading the lender's CSV (its own list of our leads
 * with the status it has for each) and comparing each row with our record of that lender's leads. What comes out
 * is a list for people to act on; nothing here writes an outcome. Format: docs/products-api.md "Reconciliation".
 */
import { type YuanParse, yuanTextToFen } from '@lm/shared/money';
import type { OutcomeStatus } from '@lm/shared/outcomes';
import {
  FILE_STATUS_LABELS,
  type FileStatus,
  ourStatusText,
  RECONCILE_MAX_ROWS,
  type ReconcileKind,
  yuanText,
} from '@lm/shared/reconcile';
import type { ReconcileData, ReconcileDisagreement } from '@lm/shared/schemas/reconcile';
import { formatShanghai, shanghaiDayStart } from '@lm/shared/time';

/** One record of the file: its first line's number (1-based) and its cells. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** The file cannot be read at all (no header, a quote left open …): refused as a whole, in words. */
export class ReconcileFileError extends Error {}

/**
 * RFC 4180 records of comma-separated text: fields in double quotes may hold commas, line breaks and doubled
 * quotes; CRLF, LF and a lone CR end a record; a leading byte-order mark is dropped. A quote inside an unquoted
 * field is taken as it is. An unclosed quote throws.
 */
export function parseCsv(text: string): CsvRecord[] {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const out: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  let quoted = false;
  let atFieldStart = true;
  const endRecord = () => {
    cells.push(cell);
    out.push({ line: recordLine, cells });
    cells = [];
    cell = '';
    atFieldStart = true;
  };
  while (i < s.length) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"') {
        if (s[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      if (c === '\n' || (c === '\r' && s[i + 1] !== '\n')) line++;
      cell += c;
      i++;
      continue;
    }
    if (c === '"' && atFieldStart) {
      quoted = true;
      atFieldStart = false;
      i++;
      continue;
    }
    if (c === ',') {
      cells.push(cell);
      cell = '';
      atFieldStart = true;
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && s[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
      continue;
    }
    cell += c;
    atFieldStart = false;
    i++;
  }
  if (quoted) throw new ReconcileFileError(`第 ${recordLine} 行的引号没有闭合`);
  if (cell !== '' || cells.length > 0) endRecord();
  return out;
}

export type ReconcileColumn = 'leadId' | 'status' | 'amount' | 'occurredAt';

const COLUMN_TEXT: Record<ReconcileColumn, string> = {
  leadId: 'leadId（线索编号）',
  status: 'status（状态）',
  amount: 'amount（金额）',
  occurredAt: 'occurredAt（发生时间）',
};

/** A header as compared: no spaces, `_` or `-`, lower case, full-width brackets as ASCII. */
const headerKey = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '')
    .replace(/（/g, '(')
    .replace(/）/g, ')');

/** Each column's names and aliases, as `headerKey` writes them. */
const HEADER_ALIASES: Record<string, ReconcileColumn> = {
  leadid: 'leadId',
  线索编号: 'leadId',
  线索id: 'leadId',
  线索号: 'leadId',
  status: 'status',
  状态: 'status',
  线索状态: 'status',
  结果: 'status',
  amount: 'amount',
  'amount(元)': 'amount',
  'amount(yuan)': 'amount',
  amountyuan: 'amount',
  金额: 'amount',
  '金额(元)': 'amount',
  occurredat: 'occurredAt',
  发生时间: 'occurredAt',
  时间: 'occurredAt',
};

/** Headers that state the amount in fen: refused, the file's amounts are in yuan. */
const FEN_HEADERS = new Set(['amountfen', 'amount(分)', 'amount(fen)', '金额(分)']);

/** Where each column is in the header row; throws on a missing required column, a repeated one or fen. */
export function readHeader(cells: readonly string[]): Partial<Record<ReconcileColumn, number>> {
  const at: Partial<Record<ReconcileColumn, number>> = {};
  cells.forEach((raw, index) => {
    const key = headerKey(raw);
    if (FEN_HEADERS.has(key))
      throw new ReconcileFileError(
        `金额列「${raw.trim()}」以分为单位：对账文件的金额须以元为单位（如 12345.67），表头写 amount 或 金额`,
      );
    const column = HEADER_ALIASES[key];
    if (!column) return;
    if (at[column] !== undefined) throw new ReconcileFileError(`表头中 ${COLUMN_TEXT[column]} 出现了两次`);
    at[column] = index;
  });
  const missing = (['leadId', 'status'] as const).filter((c) => at[c] === undefined);
  if (missing.length)
    throw new ReconcileFileError(
      `第一行须为表头，缺少 ${missing.map((c) => COLUMN_TEXT[c]).join('、')}（表头示例：leadId,status,amount,occurredAt）`,
    );
  return at;
}

/** The file's words for a status (case and spaces aside) → ours; 未通过 agrees with declined and duplicate. */
const STATUS_ALIASES: Record<string, FileStatus> = {
  received: 'received',
  duplicate: 'duplicate',
  approved: 'approved',
  declined: 'declined',
  funded: 'funded',
  申请中: 'received',
  审核中: 'received',
  已受理: 'received',
  重复: 'duplicate',
  重复申请: 'duplicate',
  已授信: 'approved',
  授信: 'approved',
  已放款: 'funded',
  放款: 'funded',
  已拒绝: 'declined',
  拒绝: 'declined',
  未通过: 'not_passed',
};

export function parseFileStatus(text: string): FileStatus | null {
  return STATUS_ALIASES[text.trim().toLowerCase().replace(/\s+/g, '')] ?? null;
}

/** The largest amount taken: 100 000 000 元, as the outcomes API (fen). */
const MAX_FEN = 10_000_000_000;

/**
 * An amount in yuan as written (`12345.67`, `12,345.67`, `¥12345`, `12345.6元`) → integer fen, exactly
 * (`yuanTextToFen` of @lm/shared/money, up to MAX_FEN); a reason when it cannot be read.
 */
export function parseYuan(text: string): YuanParse {
  return yuanTextToFen(text, { maxFen: MAX_FEN });
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const WALL_TIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** `2026-03-01 14:05[:09]` (or with a `T`), `2026/3/1`, a bare day (Shanghai wall clock), or ISO 8601 with an offset → ISO. */
export function parseOccurredAt(text: string): { at: string } | { problem: string } {
  const s = text.trim();
  const bad = { problem: `发生时间「${s}」无法识别（如 2026-03-01 14:05，北京时间）` };
  if (ISO_WITH_OFFSET.test(s)) {
    const t = Date.parse(s);
    return Number.isNaN(t) ? bad : { at: new Date(t).toISOString() };
  }
  const m = WALL_TIME.exec(s);
  if (!m) return bad;
  const day = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  const [h, min, sec] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (h > 23 || min > 59 || sec > 59) return bad;
  try {
    return {
      at: new Date(shanghaiDayStart(day).getTime() + ((h * 60 + min) * 60 + sec) * 1000).toISOString(),
    };
  } catch {
    return bad;
  }
}

/** A row of the file as read: a lead with its status, or a bad row and why. */
export type FileRow =
  | {
      ok: true;
      line: number;
      leadId: string;
      statusText: string;
      status: FileStatus;
      amountFen: number | null;
      occurredAt: string | null;
    }
  | { ok: false; line: number; leadId: string | null; statusText: string; reason: string };

/**
 * The file's rows: the header first (required, see `readHeader`), blank lines skipped, every other record read
 * into a lead or a bad row with its reason (no lead, an unknown status, an amount or time that cannot be read,
 * the lead again). Throws `ReconcileFileError` when the file as a whole cannot be read.
 */
export function readReconcileFile(csv: string): FileRow[] {
  const records = parseCsv(csv).filter((r) => r.cells.some((c) => c.trim() !== ''));
  const [header, ...data] = records;
  if (!header) throw new ReconcileFileError('对账文件是空的');
  if (data.length > RECONCILE_MAX_ROWS)
    throw new ReconcileFileError(
      `对账文件有 ${data.length} 行，最多 ${RECONCILE_MAX_ROWS} 行：请按日期拆分后分别对账`,
    );
  const at = readHeader(header.cells);
  const cell = (r: CsvRecord, c: ReconcileColumn) => {
    const i = at[c];
    return i === undefined ? '' : (r.cells[i] ?? '').trim();
  };
  const firstLine = new Map<string, number>();
  return data.map((r): FileRow => {
    const leadId = cell(r, 'leadId');
    const statusText = cell(r, 'status');
    const bad = (reason: string): FileRow => ({
      ok: false,
      line: r.line,
      leadId: leadId || null,
      statusText,
      reason,
    });
    if (!leadId) return bad('缺少线索编号 leadId');
    const seen = firstLine.get(leadId);
    if (seen !== undefined) return bad(`线索 ${leadId} 在第 ${seen} 行已出现`);
    firstLine.set(leadId, r.line);
    if (!statusText) return bad('缺少状态 status');
    const status = parseFileStatus(statusText);
    if (!status)
      return bad(
        `无法识别的状态「${statusText}」（可用 received、duplicate、approved、declined、funded 或 申请中、已授信、已放款、未通过）`,
      );
    let amountFen: number | null = null;
    const amountText = cell(r, 'amount');
    if (amountText) {
      const amount = parseYuan(amountText);
      if ('problem' in amount) return bad(amount.problem);
      amountFen = amount.fen;
    }
    let occurredAt: string | null = null;
    const timeText = cell(r, 'occurredAt');
    if (timeText) {
      const time = parseOccurredAt(timeText);
      if ('problem' in time) return bad(time.problem);
      occurredAt = time.at;
    }
    return { ok: true, line: r.line, leadId, statusText, status, amountFen, occurredAt };
  });
}

/** Our record of one lead of this lender. */
export interface OurLead {
  recordId: number;
  /** The lead's person (the console links to their record). */
  userId: number;
  leadId: string;
  /** `leads.outcome`: null, nothing reported yet. */
  status: OutcomeStatus | null;
  /** The limit of the latest approval reported, and the amount of the latest funded loan reported. */
  approvedLimitFen: number | null;
  fundedAmountFen: number | null;
  deliveredAt: Date | null;
}

/** Whether the file's status says what ours does: 申请中 is ours with nothing reported too; 未通过 either refusal. */
export function statusAgrees(theirs: FileStatus, ours: OutcomeStatus | null): boolean {
  if (theirs === 'received') return ours === null || ours === 'received';
  if (theirs === 'not_passed') return ours === 'declined' || ours === 'duplicate';
  return theirs === ours;
}

/** The amount our record has for a status: an approval's limit, a funded loan's amount, else none. */
export function ourAmount(lead: OurLead, status: OutcomeStatus | FileStatus | null): number | null {
  if (status === 'approved') return lead.approvedLimitFen;
  if (status === 'funded') return lead.fundedAmountFen;
  return null;
}

const amountWord = (status: FileStatus) => (status === 'approved' ? '授信额度' : '放款金额');
const money = (fen: number | null) => (fen === null ? '未填写' : yuanText(fen));

export type ReconcileResult = Pick<ReconcileData, 'totals' | 'disagreements' | 'truncated'>;

/**
 * Each row of the file against our record of this lender's leads (`ours`, by lead key: only this lender's,
 * so another lender's lead reads as unknown), then the leads the file should hold (`expected`) that it leaves
 * out. A row disagrees on one thing at most: an unreadable row, an unknown lead, its status, then — statuses
 * agreeing on approved or funded and the file giving an amount — the amount. The list keeps the first
 * `maxListed`; the totals count everything.
 */
export function reconcile(
  rows: readonly FileRow[],
  ours: ReadonlyMap<string, OurLead>,
  expected: readonly OurLead[],
  maxListed: number,
): ReconcileResult {
  const counts: Record<ReconcileKind, number> = {
    unknown_lead: 0,
    status_differs: 0,
    amount_differs: 0,
    missing_in_file: 0,
    bad_row: 0,
  };
  const list: ReconcileDisagreement[] = [];
  const add = (d: ReconcileDisagreement) => {
    counts[d.kind]++;
    if (list.length < maxListed) list.push(d);
  };
  const oursOf = (lead: OurLead, status: OutcomeStatus | FileStatus | null = lead.status) => ({
    status: lead.status,
    amountFen: ourAmount(lead, status),
    deliveredAt: lead.deliveredAt ? lead.deliveredAt.toISOString() : null,
  });
  const inFile = new Set<string>();
  let matched = 0;
  for (const row of rows) {
    if (row.leadId) inFile.add(row.leadId);
    if (!row.ok) {
      const lead = row.leadId ? ours.get(row.leadId) : undefined;
      add({
        kind: 'bad_row',
        line: row.line,
        leadId: row.leadId,
        userId: lead?.userId ?? null,
        theirs: row.statusText
          ? {
              statusText: row.statusText,
              status: parseFileStatus(row.statusText),
              amountFen: null,
              occurredAt: null,
            }
          : null,
        ours: lead ? oursOf(lead) : null,
        text: `第 ${row.line} 行无法读取：${row.reason}`,
      });
      continue;
    }
    const theirs = {
      statusText: row.statusText,
      status: row.status,
      amountFen: row.amountFen,
      occurredAt: row.occurredAt,
    };
    const lead = ours.get(row.leadId);
    if (!lead) {
      add({
        kind: 'unknown_lead',
        line: row.line,
        leadId: row.leadId,
        userId: null,
        theirs,
        ours: null,
        text: `我方没有推送给该机构的线索 ${row.leadId}（编号有误，或是其他机构的线索）`,
      });
      continue;
    }
    if (!statusAgrees(row.status, lead.status)) {
      add({
        kind: 'status_differs',
        line: row.line,
        leadId: row.leadId,
        userId: lead.userId,
        theirs,
        ours: oursOf(lead),
        text: `机构为「${FILE_STATUS_LABELS[row.status]}」，我方为「${ourStatusText(lead.status)}」`,
      });
      continue;
    }
    if (row.amountFen !== null && (row.status === 'approved' || row.status === 'funded')) {
      const mine = ourAmount(lead, row.status);
      if (mine !== row.amountFen) {
        add({
          kind: 'amount_differs',
          line: row.line,
          leadId: row.leadId,
          userId: lead.userId,
          theirs,
          ours: oursOf(lead, row.status),
          text: `${amountWord(row.status)}：机构为 ${money(row.amountFen)}，我方为 ${money(mine)}`,
        });
        continue;
      }
    }
    matched++;
  }
  for (const lead of expected) {
    if (inFile.has(lead.leadId)) continue;
    add({
      kind: 'missing_in_file',
      line: null,
      leadId: lead.leadId,
      userId: lead.userId,
      theirs: null,
      ours: oursOf(lead),
      text: `我方记录为「${ourStatusText(lead.status)}」${
        lead.deliveredAt ? `（${formatShanghai(lead.deliveredAt.toISOString())} 推送）` : ''
      }，机构文件中没有这条线索`,
    });
  }
  const disagreements = Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    totals: {
      rows: rows.length,
      matched,
      disagreements,
      unknownLead: counts.unknown_lead,
      statusDiffers: counts.status_differs,
      amountDiffers: counts.amount_differs,
      missingInFile: counts.missing_in_file,
      badRows: counts.bad_row,
    },
    disagreements: list,
    truncated: disagreements > list.length,
  };
}
