import { PRICE_MODEL_LABELS, PRICE_MODELS, type PriceModel } from '@lm/shared/prices';
import type { ProductPrice, ProductPriceBody, ProductPricesData } from '@lm/shared/schemas/product-prices';
import { formatShanghai, shanghaiDate, shanghaiDayStart } from '@lm/shared/time';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import type { PricingRepository, ProductPriceWithWho } from './repository.ts';
import { byNewest, priceAt } from './rules.ts';

export interface PricingDeps {
  repo: PricingRepository;
  /** The clock (tests move it). */
  now?: () => Date;
}

/** Who sees amounts: everyone reading prices but a viewer (issue 48.7 "viewer sees no amounts"). */
export function showsAmounts(actor: Actor): boolean {
  return actor.staff !== null && actor.staff.role !== 'viewer';
}

/**
 * A product's lead prices (issue 48.1, ADR 073): listed with the price in force per model, added from a
 * Shanghai day on (today or later; a price never changes the past), each addition audited. Nothing is
 * posted to a ledger here: the ledger prices its events with `priceAt` (next step of issue 48).
 */
export class PricingService {
  private readonly now: () => Date;

  constructor(private readonly d: PricingDeps) {
    this.now = d.now ?? (() => new Date());
  }

  private async product(repo: PricingRepository, id: number) {
    const product = await repo.product(id);
    if (!product) throw appError('NOT_FOUND', '产品不存在');
    return product;
  }

  /** The prices of a product and, per model, the one in force on the Shanghai day `at` (default today). */
  async list(actor: Actor, productId: number, at?: string): Promise<ProductPricesData> {
    await this.product(this.d.repo, productId);
    const rows = await this.d.repo.prices(productId);
    const today = shanghaiDate(this.now());
    const day = at ?? today;
    const shown = showsAmounts(actor);
    const item = (r: ProductPriceWithWho): ProductPrice => ({
      id: r.id,
      model: r.model,
      ...(shown && r.amountFen !== null ? { amountFen: r.amountFen } : {}),
      ...(shown && r.bps !== null ? { bps: r.bps } : {}),
      effectiveFrom: formatShanghai(r.effectiveFrom.toISOString(), 'day'),
      createdByName: r.createdByName,
      createdAt: r.createdAt.toISOString(),
    });
    const start = shanghaiDayStart(day);
    const inForce = Object.fromEntries(
      PRICE_MODELS.map((m) => {
        const r = priceAt(rows, m, start);
        return [m, r ? item(r) : null];
      }),
    ) as Record<PriceModel, ProductPrice | null>;
    return {
      productId,
      at: day,
      today,
      inForce,
      list: [...rows].sort(byNewest).map(item),
      amountsShown: shown,
    };
  }

  /**
   * Adds a price from the Shanghai day `effectiveFrom` (today or later — the schema says so too, this holds it
   * against the service's own clock). A second price of the same model from the same day is refused in words:
   * add one from another day instead.
   */
  async add(actor: Actor, productId: number, body: ProductPriceBody): Promise<ProductPricesData> {
    const today = shanghaiDate(this.now());
    const label = PRICE_MODEL_LABELS[body.model];
    if (body.effectiveFrom < today)
      throw appError('VALIDATION_FAILED', '生效日期不能早于今天（北京时间）：新价格不改变已经发生的线索', {
        fields: [{ field: 'effectiveFrom', message: '生效日期不能早于今天（北京时间）' }],
      });
    await this.d.repo.transaction(async (tx) => {
      const product = await this.product(tx, productId);
      const row = await tx.insert({
        productId,
        model: body.model,
        amountFen: body.model === 'cps' ? null : (body.amountFen ?? null),
        bps: body.model === 'cps' ? (body.bps ?? null) : null,
        effectiveFrom: shanghaiDayStart(body.effectiveFrom),
        createdBy: actor.staff?.id ?? null,
      });
      if (!row) {
        const text = `${product.productName} 已有 ${body.effectiveFrom} 起生效的「${label}」价格；同一计价方式同一天只能有一个价格，请选择其他生效日期`;
        throw appError('VALIDATION_FAILED', text, { fields: [{ field: 'effectiveFrom', message: text }] });
      }
      await tx.recordAudit(actor, {
        action: 'create',
        entity: 'product_price',
        entityId: row.id,
        before: null,
        after: {
          productId,
          productName: product.productName,
          model: row.model,
          ...(row.amountFen !== null ? { amountFen: row.amountFen } : {}),
          ...(row.bps !== null ? { bps: row.bps } : {}),
          effectiveFrom: body.effectiveFrom,
        },
      });
    });
    return this.list(actor, productId);
  }
}
