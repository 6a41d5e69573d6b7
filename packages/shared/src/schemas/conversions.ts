/** Conversions (issue 47): ad clicks and what is reported to the ad platforms. */
import { z } from 'zod';
import { AD_PLATFORMS, CLICK_PARAM_MAX } from '../ad-clicks.ts';

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
