/**
 * Lead prices (issue 48.1, ADR 073), pure: which price row applies at an instant. A price takes effect at
 * the start of its Shanghai day and stays until a later row of the same model takes over; a lead is priced
 * at its event (delivery, first approval, each funding) with the row in force then, so a new price never
 * rewrites the past.
 */
import type { PriceModel } from '@lm/shared/prices';

/** What the rule needs of a price row. */
export interface PriceRow {
  id: number;
  model: PriceModel;
  effectiveFrom: Date;
}

/**
 * The row of `model` in force at `at`: the one with the latest `effectiveFrom` ≤ `at` (a row takes effect at
 * its instant exactly); null when none has taken effect yet. Rows of other models are ignored. Two rows of a
 * model never share an instant (the table's unique index); if they did, the later-added (higher id) wins.
 */
export function priceAt<T extends PriceRow>(prices: readonly T[], model: PriceModel, at: Date): T | null {
  let best: T | null = null;
  const t = at.getTime();
  for (const p of prices) {
    if (p.model !== model) continue;
    const from = p.effectiveFrom.getTime();
    if (from > t) continue;
    if (
      best === null ||
      from > best.effectiveFrom.getTime() ||
      (from === best.effectiveFrom.getTime() && p.id > best.id)
    )
      best = p;
  }
  return best;
}

/** Newest first: the latest effective day first, then the later-added. */
export function byNewest<T extends PriceRow>(a: T, b: T): number {
  return b.effectiveFrom.getTime() - a.effectiveFrom.getTime() || b.id - a.id;
}
