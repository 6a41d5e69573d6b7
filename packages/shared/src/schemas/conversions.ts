/** Conversions (issue 47): ad clicks and what is reported to the ad platforms. */
import { z } from 'zod';
import { AD_PLATFORMS, CLICK_PARAM_MAX } from '../ad-clicks.ts';
import {
  ATTRIBUTION_WINDOW_DAYS,
  CONVERSION_STEP_LABELS,
  CONVERSION_STEPS,
  type ConversionStep,
  EVENT_CODE_PATTERNS,
  PLATFORM_CREDENTIALS,
  VALUED_STEPS,
} from '../conversions.ts';

/** GET /api/dev/ad-clicks: the clicks the server keeps under a click id (dev only). */
export const devAdClicksQuery = z.object({
  clickId: z
    .string({ error: '请填写点击 ID' })
    .trim()
    .min(1, '请填写点击 ID')
    .max(CLICK_PARAM_MAX, `点击 ID 最长 ${CLICK_PARAM_MAX} 个字符`),
  platform: z.enum(AD_PLATFORMS, { error: `广告平台只能是 ${AD_PLATFORMS.join('、')}` }).optional(),
});

export const adClickData = z.object({
  platform: z.enum(AD_PLATFORMS),
  clickId: z.string(),
  channelCode: z.string(),
  /** The platform's click parameters of the landing URL (nothing else). */
  params: z.record(z.string(), z.string()),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  /** The person credited with the click (ADR 069), null before a login. */
  userId: z.number().int().nullable(),
  attributedAt: z.string().nullable(),
});

const eventSettingSchema = z.object({
  enabled: z.boolean({ error: '是否回传必须是布尔值' }),
  eventCode: z.string({ error: '事件编码必须是文本' }).trim().max(64, '事件编码最多 64 个字符'),
  firstOnly: z.boolean({ error: '是否仅首次必须是布尔值' }),
  minAmountFen: z
    .number({ error: '最低金额必须是整数（分）' })
    .int('最低金额必须是整数（分）')
    .min(0, '最低金额不能为负')
    .max(100_000_000_00, '最低金额过大')
    .nullable(),
  sendValue: z.boolean({ error: '是否回传金额必须是布尔值' }),
});

/** The credentials' keys across the platforms (each platform takes its own; checked against the platform). */
const credentialsSchema = z
  .record(
    z.string().regex(/^[A-Za-z]{1,32}$/, '凭据名称无效'),
    z.string({ error: '凭据必须是文本' }).trim().max(256, '凭据最多 256 个字符'),
  )
  .refine((c) => Object.keys(c).length <= 8, '凭据过多');

/**
 * PUT /api/admin/channels/:id/conversions: the channel's reporting to its ad platform (issue 47.2) — the
 * platform, the attribution window, the event of each step, and the platform's credentials (absent: the stored
 * ones stay; a secret is never answered back, so an edit that leaves it alone does not send it).
 */
export const channelConversionsBody = z
  .object({
    enabled: z.boolean({ error: '是否开启回传必须是布尔值' }),
    platform: z.enum(AD_PLATFORMS, { error: `广告平台只能是 ${AD_PLATFORMS.join('、')}` }),
    windowDays: z
      .number({
        error: `归因窗口必须是 ${ATTRIBUTION_WINDOW_DAYS.min} 到 ${ATTRIBUTION_WINDOW_DAYS.max} 的整数（天）`,
      })
      .int(`归因窗口必须是 ${ATTRIBUTION_WINDOW_DAYS.min} 到 ${ATTRIBUTION_WINDOW_DAYS.max} 的整数（天）`)
      .min(ATTRIBUTION_WINDOW_DAYS.min, `归因窗口至少 ${ATTRIBUTION_WINDOW_DAYS.min} 天`)
      .max(ATTRIBUTION_WINDOW_DAYS.max, `归因窗口最多 ${ATTRIBUTION_WINDOW_DAYS.max} 天`),
    events: z.object(
      Object.fromEntries(CONVERSION_STEPS.map((s) => [s, eventSettingSchema])) as Record<
        ConversionStep,
        typeof eventSettingSchema
      >,
      { error: `事件映射须包含 ${CONVERSION_STEPS.join('、')}` },
    ),
    credentials: credentialsSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const { pattern, hint } = EVENT_CODE_PATTERNS[body.platform];
    for (const step of CONVERSION_STEPS) {
      const e = body.events[step];
      const label = CONVERSION_STEP_LABELS[step];
      if (e.eventCode !== '' && !pattern.test(e.eventCode))
        ctx.addIssue({
          code: 'custom',
          path: ['events', step, 'eventCode'],
          message: `${label}的事件编码格式不对：${hint}`,
        });
      if (e.enabled && e.eventCode === '')
        ctx.addIssue({
          code: 'custom',
          path: ['events', step, 'eventCode'],
          message: `请填写${label}的事件编码`,
        });
      if (!VALUED_STEPS.includes(step) && (e.minAmountFen !== null || e.sendValue))
        ctx.addIssue({
          code: 'custom',
          path: ['events', step],
          message: `${label}没有金额，不能设置最低金额或回传金额`,
        });
    }
    if (body.credentials) {
      const fields = PLATFORM_CREDENTIALS[body.platform];
      for (const [key, value] of Object.entries(body.credentials)) {
        const field = fields.find((f) => f.key === key);
        if (!field)
          ctx.addIssue({
            code: 'custom',
            path: ['credentials', key],
            message: fields.length
              ? `该平台的凭据只有 ${fields.map((f) => f.key).join('、')}`
              : '该平台按点击回传，不需要凭据',
          });
        else if (value !== '' && !field.pattern.test(value))
          ctx.addIssue({
            code: 'custom',
            path: ['credentials', key],
            message: `${field.label}格式不对：${field.hint}`,
          });
      }
    }
  });
export type ChannelConversionsBody = z.infer<typeof channelConversionsBody>;

const eventSettingData = z.object({
  enabled: z.boolean(),
  eventCode: z.string(),
  firstOnly: z.boolean(),
  minAmountFen: z.number().int().nullable(),
  sendValue: z.boolean(),
});

export const channelConversionsData = z.object({
  channelId: z.number().int(),
  adChannelCode: z.string(),
  /** False until an operator saved settings (the answer then shows the platform's defaults). */
  configured: z.boolean(),
  enabled: z.boolean(),
  platform: z.enum(AD_PLATFORMS),
  windowDays: z.number().int(),
  events: z.object(
    Object.fromEntries(CONVERSION_STEPS.map((s) => [s, eventSettingData])) as Record<
      ConversionStep,
      typeof eventSettingData
    >,
  ),
  /** The platform's credentials: whether each is set; a secret only masked (its last four characters). */
  credentials: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      secret: z.boolean(),
      set: z.boolean(),
      /** A non-secret in clear, a secret as ****abcd, null when not set. */
      shown: z.string().nullable(),
    }),
  ),
  /** The click parameters the channel's landing captures (its 广告回传 setting), null when off. */
  trackReport: z.object({ platform: z.string(), params: z.array(z.string()) }).nullable(),
  /** Why the settings cannot report now (the capture off or of another platform, a credential missing). */
  problems: z.array(z.string()),
  updatedAt: z.string().nullable(),
});
export type ChannelConversionsData = z.infer<typeof channelConversionsData>;
