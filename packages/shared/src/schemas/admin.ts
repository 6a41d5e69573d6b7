/**
 * Conventions shared by every console call (issue 7): paging, sorting, the list envelope, and the
 * audit log. Every `/api/admin/*` list takes `pageQuery` (extended with its own filters) and answers
 * `{total, page, pageSize, list}`.
 */
import { z } from 'zod';
import { dayFilterSchema } from './common.ts';

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1, '页码从 1 开始').max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200, '每页最多 200 条').default(20),
  /** A column name the list allows (each list validates it against its own set). */
  sort: z
    .string()
    .trim()
    .max(40)
    .regex(/^[A-Za-z]\w*$/, '排序字段无效')
    .optional(),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** `{total, page, pageSize, list}` for a list of `item`. */
export function pageData<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    list: z.array(item),
  });
}

/** A reason is required to reveal personal data; it is written to the audit log. */
export const revealBody = z.object({
  reason: z.string().trim().min(4, '请填写查看原因（至少 4 个字）').max(200, '原因最多 200 字'),
});

export const auditLogQuery = pageQuery.extend({
  entity: z.string().trim().max(40).optional(),
  entityId: z.string().trim().max(64).optional(),
  staffId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  action: z.string().trim().max(40).optional(),
  from: dayFilterSchema.optional(),
  to: dayFilterSchema.optional(),
});

export const auditEntrySchema = z.object({
  id: z.number().int(),
  staffId: z.number().int().nullable(),
  staffName: z.string(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogData = pageData(auditEntrySchema);
