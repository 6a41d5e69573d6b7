/**
 * What a channel costs, with the day each cost takes effect (issue 48.2, ADR 073):
 * GET/POST /api/admin/channels/:id/costs. One model at a time per channel: the row in force is the one with the
 * latest effective day on or before the day asked.
 */
import { z } from 'zod';
import { CHANNEL_COST_MODELS, channelCostUnit } from '../ledger.ts';
import { PRICE_MAX_BPS, PRICE_MAX_FEN, PRICE_MIN_BPS } from '../prices.ts';
import { shanghaiDate } from '../time.ts';
import { dayFilterSchema } from './common.ts';

/** The largest per-event channel cost: 100 000 000 fen (1 000 000 元), as a lead price. */
export const CHANNEL_COST_MAX_FEN = PRICE_MAX_FEN;

const costModel = z.enum(CHANNEL_COST_MODELS, {
  error:
    '计费方式应为 cpc（按点击）、cpa_register（按注册）、cpa_lead（按线索）、rev_share（收入分成）或 spend（按投放消耗导入）',
});

/** POST /api/admin/channels/:id/costs — a channel's cost model from a Shanghai day on (today or later). */
export const channelCostBody = z
  .object({
    model: costModel,
    /** cpc / cpa_register / cpa_lead: fen per click, registration or lead, 0–100 000 000. */
    amountFen: z
      .number({ error: '单价应为整数（分）' })
      .int('单价应为整数（分）')
      .min(0, '单价不能为负数')
      .max(CHANNEL_COST_MAX_FEN, `单价最高 ${CHANNEL_COST_MAX_FEN / 100} 元`)
      .optional(),
    /** rev_share: basis points of the lead revenue the channel's people bring, 1–10 000. */
    bps: z
      .number({ error: '分成比例应为整数（基点，1 基点 = 0.01%）' })
      .int('分成比例应为整数（基点，1 基点 = 0.01%）')
      .min(PRICE_MIN_BPS, '分成比例至少 1 个基点（0.01%）')
      .max(PRICE_MAX_BPS, '分成比例最高 10000 个基点（100%）')
      .optional(),
    /** The Shanghai day the cost takes effect (from its 00:00); today or later. */
    effectiveFrom: dayFilterSchema.refine(
      (day) => day >= shanghaiDate(new Date()),
      '生效日期不能早于今天（北京时间）：新的渠道成本不改变已经发生的费用',
    ),
  })
  .superRefine((v, ctx) => {
    const unit = channelCostUnit(v.model);
    if (unit === 'fen') {
      if (v.amountFen === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['amountFen'],
          message: '按点击、按注册和按线索计费须填写单价（分）',
        });
      if (v.bps !== undefined)
        ctx.addIssue({ code: 'custom', path: ['bps'], message: '按点击、按注册和按线索计费不填分成比例' });
    } else if (unit === 'bps') {
      if (v.bps === undefined)
        ctx.addIssue({ code: 'custom', path: ['bps'], message: '收入分成须填写分成比例（基点）' });
      if (v.amountFen !== undefined)
        ctx.addIssue({ code: 'custom', path: ['amountFen'], message: '收入分成不填单价' });
    } else {
      if (v.amountFen !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['amountFen'],
          message: '按投放消耗计费不填单价：成本来自导入的消耗',
        });
      if (v.bps !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['bps'],
          message: '按投放消耗计费不填分成比例：成本来自导入的消耗',
        });
    }
  });
export type ChannelCostBody = z.infer<typeof channelCostBody>;

/** GET /api/admin/channels/:id/costs?at=YYYY-MM-DD — `at`: the Shanghai day whose cost is "in force". */
export const channelCostsQuery = z.object({
  /** Default: today (Shanghai). */
  at: dayFilterSchema.optional(),
});
export type ChannelCostsQuery = z.infer<typeof channelCostsQuery>;

/** One cost row. A viewer gets it without `amountFen` and `bps` (the fields are absent, not zero). */
export const channelCostSchema = z.object({
  id: z.number().int(),
  model: z.enum(CHANNEL_COST_MODELS),
  /** cpc / cpa_*: fen per event. */
  amountFen: z.number().int().optional(),
  /** rev_share: basis points of the lead revenue. */
  bps: z.number().int().optional(),
  /** The Shanghai day it takes effect, YYYY-MM-DD. */
  effectiveFrom: z.string(),
  /** Who added it (null: an account since deleted). */
  createdByName: z.string().nullable(),
  createdAt: z.string(),
});
export type ChannelCost = z.infer<typeof channelCostSchema>;

export const channelCostsData = z.object({
  channelId: z.number().int(),
  /** The day `inForce` is for (the query's `at`, else today in Shanghai). */
  at: z.string(),
  /** Today in Shanghai: rows effective after it are scheduled. */
  today: z.string(),
  /** The one cost row in force on `at` (null: none yet — the channel costs nothing that day). */
  inForce: channelCostSchema.nullable(),
  /** Every row, the latest effective day first. */
  list: z.array(channelCostSchema),
  /** false for a viewer: no amount is sent. */
  amountsShown: z.boolean(),
});
export type ChannelCostsData = z.infer<typeof channelCostsData>;
