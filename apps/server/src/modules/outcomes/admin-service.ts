import { OUTCOME_LABELS } from '@lm/shared/outcomes';
import { PARTNER_OUTCOMES_LATEST, type PartnerOutcomesData } from '@lm/shared/schemas/partner-outcomes';
import { shanghaiDayBounds } from '@lm/shared/time';
import { appError } from '../../lib/errors.ts';
import type { OutcomeAdminRepository } from './admin-repository.ts';
import { amountTotals, latencyFigures, outcomeCounts, reportKind } from './rules.ts';

/**
 * One lender's outcomes for the console (机构反馈, issue 47.6): of its leads delivered in a range of Shanghai
 * days, how many stand at each outcome, the amounts, how long it took to report, and its latest reports.
 */
export class PartnerOutcomesService {
  constructor(private readonly repo: OutcomeAdminRepository) {}

  async report(partnerId: number, from: string, to: string): Promise<PartnerOutcomesData> {
    const partner = await this.repo.partner(partnerId);
    if (!partner) throw appError('NOT_FOUND', '机构不存在');
    const span = { start: shanghaiDayBounds(from).start, end: shanghaiDayBounds(to).end };
    const [counts, facts, latest] = await Promise.all([
      this.repo.countsByOutcome(partnerId, span),
      this.repo.leadFacts(partnerId, span),
      this.repo.latest(partnerId, span, PARTNER_OUTCOMES_LATEST),
    ]);
    return {
      partnerId: partner.id,
      partnerName: partner.legalName,
      from,
      to,
      delivered: counts.reduce((n, c) => n + c.n, 0),
      counts: outcomeCounts(counts),
      ...amountTotals(facts),
      latency: {
        firstOutcome: latencyFigures(facts.map((f) => f.firstSeconds)),
        approved: latencyFigures(facts.map((f) => f.approvedSeconds)),
        funded: latencyFigures(facts.map((f) => f.fundedSeconds)),
      },
      latest: latest.map(({ o, leadKey, userId, productName, sameStatusBefore }) => ({
        id: o.id,
        leadId: o.leadId,
        userId,
        leadKeyShort: leadKey.slice(0, 8),
        productName,
        transactionId: o.transactionId,
        status: o.status,
        label: OUTCOME_LABELS[o.status],
        limitFen: o.limitFen,
        rateBps: o.rateBps,
        amountFen: o.amountFen,
        termMonths: o.termMonths,
        reason: o.reason,
        applied: o.applied,
        ...reportKind({ applied: o.applied, sameStatusBefore }),
        occurredAt: o.occurredAt.toISOString(),
        receivedAt: o.receivedAt.toISOString(),
      })),
    };
  }
}
