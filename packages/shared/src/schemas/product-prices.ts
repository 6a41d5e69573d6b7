/**
 * A product's lead prices with the day each takes effect (issue 48.1, ADR 073):
 * GET/POST /api/admin/products/:id/prices.
 */
import { z } from 'zod';
import { PRICE_MAX_BPS, PRICE_MAX_FEN, PRICE_MIN_BPS, PRICE_MODELS, priceInFen } from '../prices.ts';
import { shanghaiDate } from '../time.ts';
import { dayFilterSchema } from './common.ts';

const priceModel = z.enum(PRICE_MODELS, {
  error: '计价方式应为 cpl（按线索）、cpa（按授信）或 cps（按放款）',
});

/** POST /api/admin/products/:id/prices — a new price from a Shanghai day on (today or later). */
export const productPriceBody = z
  .object({
    model: priceModel,
    /** cpl / cpa: fen per lead, 0–100 000 000 (1 000 000 元). */
    amountFen: z
      .number({ error: '价格应为整数（分）' })
      .int('价格应为整数（分）')
      .min(0, '价格不能为负数')
      .max(PRICE_MAX_FEN, `价格最高 ${PRICE_MAX_FEN / 100} 元`)
      .optional(),
    /** cps: basis points of the funded amount, 1–10 000 (0.01 %–100 %). */
    bps: z
      .number({ error: '分成比例应为整数（基点，1 基点 = 0.01%）' })
      .int('分成比例应为整数（基点，1 基点 = 0.01%）')
      .min(PRICE_MIN_BPS, '分成比例至少 1 个基点（0.01%）')
      .max(PRICE_MAX_BPS, '分成比例最高 10000 个基点（100%）')
      .optional(),
    /** The Shanghai day the price takes effect (from its 00:00); today or later. */
    effectiveFrom: dayFilterSchema.refine(
      (day) => day >= shanghaiDate(new Date()),
      '生效日期不能早于今天（北京时间）：新价格不改变已经发生的线索',
    ),
  })
  .superRefine((v, ctx) => {
    if (priceInFen(v.model)) {
      if (v.amountFen === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['amountFen'],
          message: '按线索和按授信计价须填写每条价格（分）',
        });
      if (v.bps !== undefined)
        ctx.addIssue({ code: 'custom', path: ['bps'], message: '按线索和按授信计价不填分成比例' });
    } else {
      if (v.bps === undefined)
        ctx.addIssue({ code: 'custom', path: ['bps'], message: '按放款计价须填写分成比例（基点）' });
      if (v.amountFen !== undefined)
        ctx.addIssue({ code: 'custom', path: ['amountFen'], message: '按放款计价不填每条价格' });
    }
  });
export type ProductPriceBody = z.infer<typeof productPriceBody>;

/** GET /api/admin/products/:id/prices?at=YYYY-MM-DD — `at`: the Shanghai day whose prices are "in force". */
export const productPricesQuery = z.object({
  /** Default: today (Shanghai). */
  at: dayFilterSchema.optional(),
});
export type ProductPricesQuery = z.infer<typeof productPricesQuery>;

/** One price row. A viewer gets it without `amountFen` and `bps` (the fields are absent, not zero). */
export const productPriceSchema = z.object({
  id: z.number().int(),
  model: z.enum(PRICE_MODELS),
  /** cpl / cpa: fen per lead. */
  amountFen: z.number().int().optional(),
  /** cps: basis points of the funded amount. */
  bps: z.number().int().optional(),
  /** The Shanghai day it takes effect, YYYY-MM-DD. */
  effectiveFrom: z.string(),
  /** Who added it (null: an account since deleted). */
  createdByName: z.string().nullable(),
  createdAt: z.string(),
});
export type ProductPrice = z.infer<typeof productPriceSchema>;

export const productPricesData = z.object({
  productId: z.number().int(),
  /** The day `inForce` is for (the query's `at`, else today in Shanghai). */
  at: z.string(),
  /** Today in Shanghai: rows effective after it are scheduled; the latest of each model on or before it is in force. */
  today: z.string(),
  /** Per model the price in force on `at` (null: none yet — a lead then earns nothing on that model). */
  inForce: z.object({
    cpl: productPriceSchema.nullable(),
    cpa: productPriceSchema.nullable(),
    cps: productPriceSchema.nullable(),
  }),
  /** Every price, the latest effective day first. */
  list: z.array(productPriceSchema),
  /** false for a viewer: no amount is sent. */
  amountsShown: z.boolean(),
});
export type ProductPricesData = z.infer<typeof productPricesData>;
