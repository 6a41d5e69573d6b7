import { addDays, shanghaiDate, shanghaiDayStart } from '@lm/shared/time';
import type { FastifyBaseLogger } from 'fastify';
import type { EntryInput } from '../ledger/repository.ts';
import type { ChannelCostsRepository, DayCounts } from './repository.ts';
import { costRef, dailyCosts, endedDays, isPerEvent, PER_EVENT_MODELS, type PerEventModel } from './rules.ts';

export interface ChannelCostPosterDeps {
  repo: ChannelCostsRepository;
  log: FastifyBaseLogger;
  /** The clock (tests move it). */
  now?: () => Date;
  /** The least time between two rounds that query (the delivery worker asks every few seconds). */
  intervalMs?: number;
  /** How many ended days back are looked at. */
  maxDaysBack?: number;
}

/**
 * Books what channels cost per event (issue 48.2, ADR 073): for every channel and every ended Shanghai day (yesterday
 * and up to `maxDaysBack` before it) whose cost row in force at the day's start is per-event — CPC on the day's
 * counted clicks (not flagged), CPA on the people registered with the channel that day or on the leads created that
 * day for its people — one `channel_cost` entry of count × the row's fen, referenced `<model>:<channelId>:<day>`.
 * A day with no event books nothing. Run by the delivery worker's posting rounds, at most once per interval unless
 * forced; an entry is booked once whichever instance gets there (the ledger's unique reference), in the day's month
 * or the next open one when that month is closed.
 */
export class ChannelCostPoster {
  private readonly now: () => Date;
  private readonly intervalMs: number;
  private readonly maxDaysBack: number;
  private lastRun = 0;

  constructor(private readonly d: ChannelCostPosterDeps) {
    this.now = d.now ?? (() => new Date());
    this.intervalMs = d.intervalMs ?? 60_000;
    this.maxDaysBack = d.maxDaysBack ?? 62;
  }

  /** One round (skipped within the interval of the last one unless `force`); answers how many entries were booked. */
  async runOnce(opts: { force?: boolean } = {}): Promise<number> {
    const now = this.now();
    if (!opts.force && now.getTime() - this.lastRun < this.intervalMs) return 0;
    this.lastRun = now.getTime();
    try {
      return await this.round(now);
    } catch (err) {
      // Nothing is lost: the days stay unbooked and are looked at again next round.
      this.d.log.error({ err: { message: (err as Error).message } }, 'channel cost posting failed');
      return 0;
    }
  }

  private async round(now: Date): Promise<number> {
    const { repo } = this.d;
    const today = shanghaiDate(now);
    const rows = (await repo.allCosts()).filter(
      (r) => r.effectiveFrom.getTime() < shanghaiDayStart(today).getTime(),
    );
    const byChannel = new Map<number, typeof rows>();
    for (const r of rows) byChannel.set(r.channelId, [...(byChannel.get(r.channelId) ?? []), r]);
    // Channels with a per-event row that took effect before today: their days from the first such row on.
    const plans: { channelId: number; code: string; rows: typeof rows; days: string[] }[] = [];
    const window = endedDays(today, this.maxDaysBack);
    for (const [channelId, costs] of byChannel) {
      const first = costs
        .filter((c) => isPerEvent(c.model))
        .reduce<Date | null>((m, c) => (m === null || c.effectiveFrom < m ? c.effectiveFrom : m), null);
      if (!first) continue;
      const firstDay = shanghaiDate(first);
      const days = window.filter((d) => d >= firstDay);
      if (days.length) plans.push({ channelId, code: costs[0]!.code, rows: costs, days });
    }
    if (plans.length === 0) return 0;

    const from = plans.reduce((m, p) => (p.days[0]! < m ? p.days[0]! : m), today);
    const to = addDays(today, -1);
    const start = shanghaiDayStart(from);
    const end = shanghaiDayStart(today);
    const booked = await repo.ledger().booked(
      'channel_cost',
      plans.flatMap((p) => {
        const models = PER_EVENT_MODELS.filter((m) => p.rows.some((r) => r.model === m));
        return p.days.flatMap((day) => models.map((m) => costRef.daily(m, p.channelId, day)));
      }),
    );
    const codesOf = (model: PerEventModel) =>
      plans.filter((p) => p.rows.some((r) => r.model === model)).map((p) => p.code);
    const [clicks, registrations, leadsMade] = await Promise.all([
      repo.clickCounts(codesOf('cpc'), from, to),
      repo.registrationCounts(codesOf('cpa_register'), start, end),
      repo.leadCounts(codesOf('cpa_lead'), start, end),
    ]);
    const of = (counts: DayCounts, code: string) => counts.get(code) ?? new Map<string, number>();
    let n = 0;
    for (const p of plans) {
      const costs = dailyCosts(
        p.channelId,
        p.rows,
        p.days,
        { cpc: of(clicks, p.code), cpa_register: of(registrations, p.code), cpa_lead: of(leadsMade, p.code) },
        booked,
      );
      if (costs.length === 0) continue;
      const entries: EntryInput[] = costs.map((c) => ({
        kind: 'channel_cost',
        partyType: 'channel',
        partyId: p.channelId,
        partyCode: p.code,
        eventAt: c.eventAt,
        eventMonth: c.eventMonth,
        amountFen: c.amountFen,
        reference: c.reference,
        model: c.model,
        priceId: c.priceId,
        basisFen: null,
        quantity: c.quantity,
        leadId: null,
        productId: null,
        channelCode: p.code,
      }));
      try {
        n += (await repo.transaction((_, ledger) => ledger.book(entries))).length;
      } catch (err) {
        this.d.log.error(
          { err: { message: (err as Error).message }, channelId: p.channelId },
          'channel cost posting failed',
        );
      }
    }
    return n;
  }
}
