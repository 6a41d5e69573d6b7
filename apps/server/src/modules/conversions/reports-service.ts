import type { AdPlatform } from '@lm/shared/ad-clicks';
import { type ConversionStep, reportDecision } from '@lm/shared/conversions';
import type { AdReportRepository, AdReportRow } from './reports-repository.ts';

/** A step of a person that may be reported to the platform of the click that brought them. */
export interface StepEvent {
  userId: number;
  step: ConversionStep;
  /** The step's amount in fen (credit limit, funded amount), null where it has none. */
  amountFen?: number | null;
  /** What makes this happening unique (a request id, a match, a lender's transaction) for every-time steps. */
  reference: string;
  now?: Date;
}

export type RecordOutcome =
  | { queued: true; report: AdReportRow }
  | { queued: false; reason: 'organic' | 'off' | 'step' | 'repeat' | 'below-minimum' | 'other-platform' };

/**
 * Conversion reports (issue 47.3): a step of a person becomes one `ad_reports` row against the click they were
 * last credited with (ADR 069), when its channel reports it (`reportDecision`, ADR 070). The delivery worker
 * sends the row; a repeat of the same key is a no-op.
 */
export class AdReportService {
  constructor(private readonly d: { repo: AdReportRepository }) {}

  async record(e: StepEvent): Promise<RecordOutcome> {
    const found = await this.d.repo.latestCreditedClick(e.userId);
    if (!found) return { queued: false, reason: 'organic' };
    const { click, settings } = found;
    if (!settings) return { queued: false, reason: 'off' };
    if (settings.platform !== click.platform) return { queued: false, reason: 'other-platform' };
    const platform = settings.platform as AdPlatform;
    const earlier = await this.d.repo.countOf(e.userId, e.step, platform);
    const decision = reportDecision(settings, { step: e.step, earlier, amountFen: e.amountFen ?? null });
    if (!decision.report) return { queued: false, reason: decision.reason };
    const occurrence = settings.events[e.step].firstOnly ? 'first' : e.reference;
    const now = e.now ?? new Date();
    const report = await this.d.repo.insertOnce({
      userId: e.userId,
      channelCode: click.channelCode,
      platform,
      step: e.step,
      eventCode: decision.eventCode,
      clickId: click.id,
      valueFen: decision.valueFen,
      happenedAt: now,
      idempotencyKey: `${platform}:${e.userId}:${e.step}:${occurrence}`,
      nextAttemptAt: now,
    });
    return report ? { queued: true, report } : { queued: false, reason: 'repeat' };
  }

  reportsOf(userId: number): Promise<AdReportRow[]> {
    return this.d.repo.byUserAndStep(userId);
  }
}
