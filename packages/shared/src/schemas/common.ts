import { z } from 'zod';
import { PHONE_FORMAT_MSG, PHONE_PATTERN, PHONE_REQUIRED_MSG } from '../validators/phone.ts';

/** Mobile phone number; empty → "请输入手机号", malformed → "手机号格式不正确". */
export const phoneSchema = z
  .string({ error: PHONE_REQUIRED_MSG })
  .trim()
  .min(1, PHONE_REQUIRED_MSG)
  .max(11, PHONE_FORMAT_MSG)
  .regex(PHONE_PATTERN, PHONE_FORMAT_MSG);

/** Advertising channel code as carried in ad links. */
export const channelCodeSchema = z
  .string({ error: '渠道码必须是文本' })
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
  .refine((v) => v >= 0 && v <= 999, 'abTestType 超出范围');

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
