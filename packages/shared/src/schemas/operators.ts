/**
 * Operators (ADR 057): the licensed company a person contracts with through a channel. A channel points to
 * one; its footer, its agreements (`GET /api/agreement/{code}?adChannelCode=`), the privacy policy and the
 * SMS signature of the codes sent for it all name that record. Console calls under /api/admin/operators.
 */
import { z } from 'zod';
import {
  bareSmsSignature,
  FILING_NUMBER_MSG,
  FILING_NUMBER_PATTERN,
  OPERATOR_CODE_MSG,
  OPERATOR_CODE_PATTERN,
  SERVICE_PHONE_MSG,
  SERVICE_PHONE_PATTERN,
  SMS_SIGNATURE_MSG,
  SMS_SIGNATURE_PATTERN,
} from '../validators/operator.ts';
import { pageData, pageQuery } from './admin.ts';

export const operatorCodeSchema = z
  .string({ error: '请填写运营主体编码' })
  .trim()
  .regex(OPERATOR_CODE_PATTERN, OPERATOR_CODE_MSG);

/** The signature inside 【】 (typed with its brackets, they are dropped). */
export const smsSignatureSchema = z.preprocess(
  (v) => (typeof v === 'string' ? bareSmsSignature(v) : v),
  z.string({ error: '请填写短信签名' }).regex(SMS_SIGNATURE_PATTERN, SMS_SIGNATURE_MSG),
);

export const filingNumberSchema = z
  .string({ error: '请填写备案号' })
  .trim()
  .regex(FILING_NUMBER_PATTERN, FILING_NUMBER_MSG);

const text = (label: string, min: number, max: number) =>
  z
    .string({ error: `请填写${label}` })
    .trim()
    .min(min, `${label}至少 ${min} 个字`)
    .max(max, `${label}最多 ${max} 个字`);

/** Everything of an operator the console edits (PUT sends the whole record; the code is fixed). */
export const operatorFields = z.object({
  /** The legal party: the company's full registered name. */
  companyName: text('公司全称', 4, 60),
  /** What the agreements call it ("以下简称…"), e.g. 星河融信. */
  shortName: text('简称', 2, 20),
  filingNumber: filingNumberSchema,
  smsSignature: smsSignatureSchema,
  /** Registered address, for the agreements and the privacy policy. */
  address: text('注册地址', 5, 120),
  servicePhone: z.string({ error: '请填写客服电话' }).trim().regex(SERVICE_PHONE_PATTERN, SERVICE_PHONE_MSG),
  /** Contact for personal-information matters (privacy policy). */
  email: z
    .string({ error: '请填写个人信息保护联系邮箱' })
    .trim()
    .max(120, '邮箱最多 120 个字符')
    .pipe(z.email('个人信息保护联系邮箱格式不正确')),
});
export type OperatorFields = z.infer<typeof operatorFields>;
export type OperatorFieldsInput = z.input<typeof operatorFields>;

/** POST /api/admin/operators */
export const createOperatorBody = operatorFields.extend({ code: operatorCodeSchema });
export type CreateOperatorBody = z.infer<typeof createOperatorBody>;

/** PUT /api/admin/operators/:id */
export const updateOperatorBody = operatorFields;

export const operatorIdParams = z.object({
  id: z.coerce
    .number({ error: '运营主体编号无效' })
    .int('运营主体编号无效')
    .positive('运营主体编号无效')
    .max(2_147_483_647, '运营主体编号无效'),
});

export const OPERATOR_SORTS = ['id', 'code', 'companyName', 'updatedAt'] as const;

/** GET /api/admin/operators */
export const operatorListQuery = pageQuery.extend({
  q: z.string().trim().max(64, '搜索词最多 64 个字符').optional(),
});
export type OperatorListQuery = z.infer<typeof operatorListQuery>;

export const operatorItem = z.object({
  id: z.number().int(),
  code: z.string(),
  companyName: z.string(),
  shortName: z.string(),
  filingNumber: z.string(),
  smsSignature: z.string(),
  address: z.string(),
  servicePhone: z.string(),
  email: z.string(),
  /** Channels whose footer, agreements and SMS name this operator. */
  channelCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OperatorItem = z.infer<typeof operatorItem>;
export const operatorListData = pageData(operatorItem);
export type OperatorListData = z.infer<typeof operatorListData>;

export const operatorDetailData = operatorItem.extend({
  channels: z.array(z.object({ id: z.number().int(), adChannelCode: z.string(), name: z.string() })),
});
export type OperatorDetail = z.infer<typeof operatorDetailData>;

/** The channels' form: every operator to pick from (code and names), and the default one of the configuration. */
export const operatorChoicesData = z.object({
  list: z.array(
    z.object({ code: z.string(), companyName: z.string(), shortName: z.string(), filingNumber: z.string() }),
  ),
  /** Named for a channel without an operator (and for no channel): OPERATOR_* settings. */
  fallback: z.object({ companyName: z.string(), shortName: z.string(), filingNumber: z.string() }),
});
export type OperatorChoices = z.infer<typeof operatorChoicesData>;
