/**
 * Spend imported from an ad platform's daily report (issue 48.2, ADR 073): a CSV of (day, channel code, spend in
 * yuan or fen) previewed row by row (each rejected row with its reason), then committed — a file imported twice
 * is a no-op, a channel-day imported again with another figure books only the difference.
 * POST /api/admin/spend-imports/preview, POST /api/admin/spend-imports, GET /api/admin/spend-imports.
 */
import { z } from 'zod';

/** The largest file taken, in characters (about 40 000 rows). */
export const SPEND_MAX_CHARS = 2_000_000;
/** The most data rows a file may have. */
export const SPEND_MAX_ROWS = 20_000;
/** The largest spend of one channel on one day: 100 000 000 元, in fen. */
export const SPEND_MAX_FEN = 10_000_000_000;

/** The file's columns as the console explains them (names and aliases the header may use). */
export const SPEND_COLUMNS: readonly { name: string; aliases: string; text: string }[] = [
  {
    name: 'date',
    aliases: '日期',
    text: '消耗的日期（北京时间），如 2026-12-05 或 2026/12/5；不能是未来的日期',
  },
  { name: 'adChannelCode', aliases: '渠道编码、渠道码、channel_code', text: '本系统中的渠道编码' },
  {
    name: 'spend_yuan',
    aliases: '消耗(元)、消耗（元）、金额(元)、消耗',
    text: '当日消耗，以元为单位，最多两位小数；或改用 spend_fen / 消耗(分) 列，以分为单位的整数',
  },
];

export const spendFileBody = z.object({
  /** The file's name as chosen (shown in the list of imports). */
  fileName: z
    .string({ error: '请提供文件名' })
    .trim()
    .min(1, '请提供文件名')
    .max(200, '文件名最长 200 个字符')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), '文件名不能包含控制字符'),
  /** The file's text (UTF-8 or GBK as decoded by the console; a leading BOM is ignored). */
  content: z
    .string({ error: '请上传消耗文件（CSV 文本）' })
    .max(SPEND_MAX_CHARS, `文件过大：最多 ${SPEND_MAX_CHARS} 个字符，请按日期拆分后分别导入`)
    .refine((v) => v.trim().length > 0, '消耗文件是空的'),
});
export type SpendFileBody = z.infer<typeof spendFileBody>;

export const SPEND_ROW_STATUSES = ['ok', 'rejected'] as const;

/** One data row of the file as judged. */
export const spendRowSchema = z.object({
  /** The file's line (1-based; the header is line 1). */
  line: z.number().int(),
  /** The Shanghai day, YYYY-MM-DD; null when it cannot be read. */
  day: z.string().nullable(),
  /** The channel code as written (trimmed); null when empty. */
  channelCode: z.string().nullable(),
  /** The spend in fen; null when it cannot be read. */
  amountFen: z.number().int().nullable(),
  status: z.enum(SPEND_ROW_STATUSES),
  /** Why it is rejected, in words. */
  reason: z.string().optional(),
  /** An accepted row: the spend of the channel-day booked so far (before this file) and what this file adds. */
  bookedFen: z.number().int().optional(),
  deltaFen: z.number().int().optional(),
});
export type SpendRow = z.infer<typeof spendRowSchema>;

/** An import as listed. A viewer gets it without `totalFen`. */
export const spendImportSummary = z.object({
  id: z.number().int(),
  fileName: z.string(),
  rowsTotal: z.number().int(),
  rowsImported: z.number().int(),
  rowsRejected: z.number().int(),
  /** The accepted rows' spend in fen. */
  totalFen: z.number().int().optional(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
});
export type SpendImportSummary = z.infer<typeof spendImportSummary>;

export const spendPreviewData = z.object({
  rows: z.array(spendRowSchema),
  accepted: z.number().int(),
  rejected: z.number().int(),
  /** The accepted rows' spend, in fen. */
  totalFen: z.number().int(),
  /** The same file (by its content's SHA-256) was imported before: importing it again books nothing. */
  alreadyImported: spendImportSummary.nullable(),
});
export type SpendPreviewData = z.infer<typeof spendPreviewData>;

export const spendImportResult = spendPreviewData.extend({
  /** The import (the earlier one when `repeated`). */
  import: spendImportSummary,
  /** true: this file was imported before; nothing was booked now. */
  repeated: z.boolean(),
  /** Ledger entries booked now (a channel-day whose figure did not change books none). */
  entriesBooked: z.number().int(),
  /** Their sum in fen (the change of the booked spend). */
  bookedFen: z.number().int(),
});
export type SpendImportResult = z.infer<typeof spendImportResult>;

export const spendImportsData = z.object({
  list: z.array(spendImportSummary),
  amountsShown: z.boolean(),
});
export type SpendImportsData = z.infer<typeof spendImportsData>;
