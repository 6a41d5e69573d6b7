import { z } from 'zod';
import { PHONE_FORMAT_MSG, PHONE_PATTERN, PHONE_REQUIRED_MSG } from '../validators/phone.ts';

/** Largest value of a PostgreSQL integer column: every id of a serial column is bounded by it. */
export const INT4_MAX = 2_147_483_647;

/** A regex (no anchors) for the same-length decimal strings from `lo` to `hi` (lo ≤ hi, no sign). */
function digitSpan(lo: string, hi: string): string {
  if (lo === hi) return lo;
  if (lo.length === 1) return `[${lo}-${hi}]`;
  const rest = lo.length - 1;
  const [l, lr, h, hr] = [lo[0]!, lo.slice(1), hi[0]!, hi.slice(1)];
  if (l === h) return `${l}(?:${digitSpan(lr, hr)})`;
  const zeros = '0'.repeat(rest);
  const nines = '9'.repeat(rest);
  const parts: string[] = [];
  let from = Number(l);
  let to = Number(h);
  if (lr !== zeros) parts.push(`${from++}(?:${digitSpan(lr, nines)})`);
  const last = hr !== nines ? `${to--}(?:${digitSpan(zeros, hr)})` : null;
  if (from <= to) parts.push(`${from === to ? from : `[${from}-${to}]`}[0-9]{${rest}}`);
  if (last) parts.push(last);
  return parts.join('|');
}

/**
 * A JSON-schema `pattern` for the integers from `min` to `max` (0 ≤ min ≤ max) written as decimal digits
 * without leading zeros: what the API document says of a number a query (or a body, as text) may give.
 */
export function integerRangePattern(min: number, max: number): string {
  const parts: string[] = [];
  for (let len = String(min).length; len <= String(max).length; len++) {
    const lo = Math.max(min, len === 1 ? 0 : 10 ** (len - 1));
    const hi = Math.min(max, 10 ** len - 1);
    if (lo <= hi) parts.push(digitSpan(String(lo), String(hi)));
  }
  return `^(?:${parts.join('|')})$`;
}

/**
 * How the API document describes an integer from `min` to `max` that a call takes as a number or as its
 * digits (a query value is always text): zod's own description of such a union-and-transform has no range.
 */
export function documentedInteger(min: number, max: number) {
  return {
    anyOf: [
      { type: 'integer', minimum: min, maximum: max },
      { type: 'string', pattern: integerRangePattern(min, max) },
    ],
  };
}

/** Mobile phone number; empty → "请输入手机号", malformed → "手机号格式不正确". */
export const phoneSchema = z
  .string({ error: PHONE_REQUIRED_MSG })
  .trim()
  .min(1, PHONE_REQUIRED_MSG)
  .max(11, PHONE_FORMAT_MSG)
  .regex(PHONE_PATTERN, PHONE_FORMAT_MSG);

/** Advertising channel code as carried in ad links. */
export const channelCodeSchema = z
  // Missing (or given empty in a query, which is the same): "不能为空", as for an empty string.
  .string({ error: (iss) => (iss.input === undefined ? '渠道码不能为空' : '渠道码必须是文本') })
  .trim()
  .min(1, '渠道码不能为空')
  .max(64, '渠道码最长64个字符')
  .regex(/^[A-Za-z0-9_.-]+$/, '渠道码只能包含字母、数字、下划线、点和短横线');

/** Partner source identifier for encrypted phone links. */
export const sourceSchema = z
  .string({ error: '来源必须是文本' })
  .trim()
  .min(1, '来源不能为空')
  .max(32, '来源最长32个字符')
  .regex(/^[A-Za-z0-9_-]+$/, '来源只能包含字母、数字、下划线和短横线');

/** A partner-encrypted phone (base64) or a ticket issued by getEncryptionMobile. */
export const encryptionMobileSchema = z
  .string({ error: '加密手机号必须是文本' })
  .trim()
  .min(1, '加密手机号不能为空')
  .max(512, '加密手机号过长')
  .regex(/^[A-Za-z0-9+/=_.-]+$/, '加密手机号格式不正确');

export const smsCodeSchema = z
  .string({ error: '验证码必须是文本' })
  .trim()
  .regex(/^\d{6}$/, '验证码为6位数字');

/** Skin number sent at login (skins 8–23; 0 when unknown). Accepts 17 or "17". */
export const abTestTypeSchema = z
  .union([z.number().int(), z.string().regex(/^\d{1,3}$/)], { error: 'abTestType 必须是数字' })
  .transform((v) => Number(v))
  .refine((v) => v >= 0 && v <= 999, 'abTestType 超出范围')
  .meta(documentedInteger(0, 999));

/** true/false, 1/0, "1"/"0", "true"/"false". */
export const flagSchema = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])], {
    error: '必须是布尔值',
  })
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true');

export const uidSchema = z
  .string({ error: '请提供用户编号' })
  .trim()
  .regex(/^\d{1,15}$/, '用户编号格式不正确')
  .transform((v) => Number(v));

/**
 * A calendar day `YYYY-MM-DD` that exists and that the database can store as a filter: years 2000–2099
 * (PostgreSQL has no year 0, and nothing of this product happened before 2000).
 */
export const dayFilterSchema = z
  .string({ error: '日期格式应为 YYYY-MM-DD' })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, '日期不存在')
  .refine((v) => v >= '2000-01-01' && v <= '2099-12-31', '日期超出范围（2000–2099 年）');

/** A query without parameters (the call takes none; unknown ones are ignored). */
export const noQuery = z.object({});

/** Development helpers (/api/dev/*, absent in production): the SMS outbox of a phone, an encrypted phone. */
export const devOutboxQuery = z.object({ phone: phoneSchema });
export const devEncryptMobileQuery = z.object({ phone: phoneSchema, source: sourceSchema.default('demo') });
