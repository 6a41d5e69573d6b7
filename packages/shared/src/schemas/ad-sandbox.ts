/**
 * The local ad-platform sandboxes (issue 47.3, dev only): the requests each platform's conversion API takes,
 * checked as the platform checks them (required fields, types, time units), and what they list back.
 */
import { z } from 'zod';
import { AD_PLATFORMS } from '../ad-clicks.ts';

const text = (label: string, max = 1024) =>
  z
    .string({ error: `缺少 ${label}` })
    .trim()
    .min(1, `缺少 ${label}`)
    .max(max, `${label} 过长`);

/** Milliseconds since the epoch as 13 digits (Ocean Engine, Kuaishou); seconds as 10 (Tencent). */
const msTime = (label: string) =>
  z.coerce
    .number({ error: `${label} 须为毫秒时间戳` })
    .int(`${label} 须为毫秒时间戳`)
    .min(1_000_000_000_000, `${label} 须为 13 位毫秒时间戳`)
    .max(9_999_999_999_999, `${label} 须为 13 位毫秒时间戳`);
const sTime = (label: string) =>
  z.coerce
    .number({ error: `${label} 须为秒级时间戳` })
    .int(`${label} 须为秒级时间戳`)
    .min(1_000_000_000, `${label} 须为 10 位秒级时间戳`)
    .max(9_999_999_999, `${label} 须为 10 位秒级时间戳`);

export const adSandboxPlatformParams = z.object({
  platform: z.enum(AD_PLATFORMS, { error: `广告平台只能是 ${AD_PLATFORMS.join('、')}` }),
});

/** Ocean Engine `POST /api/v2/conversion`. */
export const oceanengineConversionBody = z.object({
  event_type: text('event_type', 64),
  context: z.object(
    { ad: z.object({ callback: text('context.ad.callback') }, { error: '缺少 context.ad' }) },
    { error: '缺少 context' },
  ),
  timestamp: msTime('timestamp'),
  properties: z
    .object({
      pay_amount: z.number({ error: 'pay_amount 须为数字（元）' }).min(0, 'pay_amount 不能为负').optional(),
    })
    .optional(),
});

/** Kuaishou `GET /track/activate`. */
export const kuaishouActivateQuery = z.object({
  callback: text('callback'),
  event_type: z.string({ error: '缺少 event_type' }).regex(/^[1-9]\d{0,3}$/, 'event_type 须为数字'),
  event_time: msTime('event_time'),
  purchase_amount: z
    .string()
    .regex(/^\d{1,10}\.\d{2}$/, 'purchase_amount 须为两位小数的元')
    .optional(),
});

/** Baidu `POST /ocpcapi/api/uploadConvertData`. */
export const baiduUploadBody = z.object({
  token: text('token', 256),
  conversionTypes: z
    .array(
      z.object({
        logidUrl: text('logidUrl', 1024).refine(
          (u) => /[?&]bd_vid=[^&]+/.test(u),
          'logidUrl 须含 bd_vid 参数',
        ),
        newType: z
          .number({ error: 'newType 须为整数' })
          .int('newType 须为整数')
          .positive('newType 须为正整数'),
        convertValue: z.number().int('convertValue 须为整数（分）').min(0).optional(),
      }),
      { error: '缺少 conversionTypes' },
    )
    .min(1, 'conversionTypes 不能为空')
    .max(100, 'conversionTypes 每次最多 100 条'),
});

/** Baidu `POST /ocpcapi/api/uploadInvalidConvertData`: conversions found invalid (a duplicate or returned lead). */
export const baiduInvalidBody = z.object({
  token: text('token', 256),
  invalidConversionTypes: z
    .array(
      z.object({
        logidUrl: text('logidUrl', 1024).refine(
          (u) => /[?&]bd_vid=[^&]+/.test(u),
          'logidUrl 须含 bd_vid 参数',
        ),
        convertType: z
          .number({ error: 'convertType 须为整数' })
          .int('convertType 须为整数')
          .positive('convertType 须为正整数'),
        convertTime: sTime('convertTime'),
        invalidReason: z.string().max(256, 'invalidReason 过长').optional(),
      }),
      { error: '缺少 invalidConversionTypes' },
    )
    .min(1, 'invalidConversionTypes 不能为空')
    .max(100, 'invalidConversionTypes 每次最多 100 条'),
});

/** Tencent `POST /v1.3/user_actions/add` — the query. */
export const tencentUserActionsQuery = z.object({
  access_token: text('access_token', 256),
  timestamp: sTime('timestamp'),
  nonce: text('nonce', 32),
});

/** Tencent `POST /v1.3/user_actions/add` — the body. */
export const tencentUserActionsBody = z.object({
  account_id: z.number({ error: 'account_id 须为整数' }).int().positive('account_id 须为正整数'),
  user_action_set_id: z
    .number({ error: 'user_action_set_id 须为整数' })
    .int()
    .positive('user_action_set_id 须为正整数'),
  actions: z
    .array(
      z.object({
        action_time: sTime('action_time'),
        action_type: z
          .string({ error: '缺少 action_type' })
          .regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'action_type 须为大写事件名'),
        trace: z.object({ click_id: text('trace.click_id') }, { error: '缺少 trace' }),
        action_param: z
          .object({ value: z.number().int('value 须为整数（分）').min(0).optional() })
          .optional(),
      }),
      { error: '缺少 actions' },
    )
    .min(1, 'actions 不能为空')
    .max(50, 'actions 每次最多 50 条'),
});

/** `GET /api/dev/ad-sandbox/{platform}/events`: optional filters on the click. */
export const adSandboxEventsQuery = z.object({
  callback: z.string().trim().min(1).max(1024).optional(),
  clickid: z.string().trim().min(1).max(1024).optional(),
});

export const adSandboxEventData = z.object({
  platform: z.enum(AD_PLATFORMS),
  /** The click the event named (Ocean Engine / Kuaishou callback, Baidu bd_vid, Tencent click_id). */
  clickId: z.string(),
  eventType: z.string(),
  /** The value as received, in fen (null: none). */
  valueFen: z.number().int().nullable(),
  receivedAt: z.string(),
  request: z.record(z.string(), z.unknown()),
});
export type AdSandboxEventData = z.infer<typeof adSandboxEventData>;
