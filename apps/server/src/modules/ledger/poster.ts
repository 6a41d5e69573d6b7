import { shanghaiMonthOf } from '@lm/shared/money';
import type { FastifyBaseLogger } from 'fastify';
import { priceAt } from '../pricing/rules.ts';
import type { DueLeadEvent, EntryInput, LedgerRepository } from './repository.ts';
import { costAt, priced, ref } from './rules.ts';

export interface LedgerPosterDeps {
  repo: LedgerRepository;
  log: FastifyBaseLogger;
  /** Events taken per kind and round. */
  batch?: number;
}

type Kind = 'cpl' | 'cpa' | 'cps';

/**
 * Books what lenders owe for their leads (issue 48.3, ADR 073): every delivered lead (CPL), the first approval
 * of a lead (CPA) and every applied funding (CPS on its amount), each priced with the lead price in force at the
 * event — 0 fen when none is (the entry still counts the event on the statement) — plus the revenue share of
 * the person's channel when its cost model in force then is one. A sweep over the events not booked yet, run by
 * the delivery worker's rounds: an event is booked once (the ledger's unique reference) whichever worker or
 * retry gets there, and none is lost to a crash (the events are the source, the entry follows).
 */
export class LedgerPoster {
  private readonly batch: number;
  constructor(private readonly d: LedgerPosterDeps) {
    this.batch = d.batch ?? 100;
  }

  /** One round over each kind; answers how many events were booked. */
  async runOnce(): Promise<number> {
    let n = 0;
    n += await this.sweep('cpl', await this.d.repo.dueDeliveries(this.batch));
    n += await this.sweep('cpa', await this.d.repo.dueApprovals(this.batch));
    n += await this.sweep('cps', await this.d.repo.dueFundings(this.batch));
    return n;
  }

  private async sweep(kind: Kind, events: DueLeadEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const prices = await this.d.repo.pricesOf([...new Set(events.map((e) => e.productId))]);
    const codes = [...new Set(events.map((e) => e.channelCode).filter((c): c is string => c !== null))];
    const costs = await this.d.repo.channelCostsOf(codes);
    let booked = 0;
    for (const e of events) {
      try {
        const entries = this.entriesOf(
          kind,
          e,
          prices.filter((p) => p.productId === e.productId),
          costs.filter((c) => c.code === e.channelCode),
        );
        const rows = await this.d.repo.transaction(async (tx) => {
          // Not while a return of the lender's leads is decided; nothing more after an accepted one.
          await tx.lockLenderShared(e.partnerId);
          if (kind !== 'cpl' && (await tx.returned(e.leadId))) return [];
          return tx.book(entries);
        });
        if (rows.length > 0) booked++;
      } catch (err) {
        // The event stays unbooked and is tried again next round.
        this.d.log.error(
          { err: { message: (err as Error).message }, leadId: e.leadId, kind },
          'ledger posting failed',
        );
      }
    }
    return booked;
  }

  private entriesOf(
    kind: Kind,
    e: DueLeadEvent,
    prices: Awaited<ReturnType<LedgerRepository['pricesOf']>>,
    costs: Awaited<ReturnType<LedgerRepository['channelCostsOf']>>,
  ): EntryInput[] {
    const price = priceAt(prices, kind, e.at);
    const amountFen = priced(price, kind === 'cps' ? e.amountFen : null);
    const reference =
      kind === 'cps'
        ? ref.cps(e.outcomeId as number)
        : kind === 'cpl'
          ? ref.cpl(e.leadId)
          : ref.cpa(e.leadId);
    const eventMonth = shanghaiMonthOf(e.at);
    const lender: EntryInput = {
      kind: 'lead_revenue',
      partyType: 'lender',
      partyId: e.partnerId,
      partyCode: e.partnerCode,
      eventAt: e.at,
      eventMonth,
      amountFen,
      reference,
      model: kind,
      priceId: price?.id ?? null,
      basisFen: kind === 'cps' ? e.amountFen : null,
      quantity: 1,
      leadId: e.leadId,
      productId: e.productId,
      channelCode: e.channelCode,
    };
    const out = [lender];
    const cost = costAt(
      costs.map((c) => c.c),
      e.at,
    );
    if (cost && cost.model === 'rev_share' && cost.bps !== null && amountFen !== 0 && e.channelCode) {
      out.push({
        kind: 'channel_cost',
        partyType: 'channel',
        partyId: cost.channelId,
        partyCode: e.channelCode,
        eventAt: e.at,
        eventMonth,
        amountFen: priced(cost, amountFen),
        reference: ref.revShare(reference),
        model: 'rev_share',
        priceId: cost.id,
        basisFen: amountFen,
        quantity: 1,
        leadId: e.leadId,
        productId: e.productId,
        channelCode: e.channelCode,
      });
    }
    return out;
  }
}
