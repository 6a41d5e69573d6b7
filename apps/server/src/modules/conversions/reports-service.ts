import type { AdPlatform } from '@lm/shared/ad-clicks';
import {
  NEGATIVE_STEP,
  negativeEventCode,
  type ReportStep,
  reportDecision,
  withinReportWindow,
} from '@lm/shared/conversions';
import type { AdReportRepository, AdReportRow } from './reports-repository.ts';

/** A step of a person that may be reported to the platform of the click that brought them. */
export interface StepEvent {
  userId: number;
  /** One of our steps, or the negative signal of an invalid lead (`invalid`). */
  step: ReportStep;
  /** The step's amount in fen (credit limit, funded amount), null where it has none. */
  amountFen?: number | null;
  /** What makes this happening unique (a request id, a match, a lender's transaction) for every-time steps. */
  reference: string;
  now?: Date;
}

export type RecordOutcome =
  | { queued: true; report: AdReportRow }
  /** Past the platform's window (issue 47.5): recorded as `late`, never sent. */
  | { queued: false; reason: 'late'; report: AdReportRow }
  | {
      queued: false;
      reason:
        | 'organic'
        | 'off'
        | 'step'
        | 'repeat'
        | 'below-minimum'
        | 'other-platform'
        /** The person objected to conversion reporting (隐私政策 第六条). */
        | 'objected'
        /** A negative signal where the platform takes none, or about a lead it was never told of. */
        | 'no-negative';
    };

/**
 * Conversion reports (issue 47.3): a step of a person becomes one `ad_reports` row against the click they were
 * last credited with (ADR 069), when its channel reports it (`reportDecision`, ADR 070). The delivery worker
 * sends the row; a repeat of the same key is a no-op. A step later than the platform's window after the click
 * (`withinReportWindow`, ADR 072) is written `late`: the console shows it, the worker never claims it.
 */
export class AdReportService {
  constructor(private readonly d: { repo: AdReportRepository }) {}

  async record(e: StepEvent): Promise<RecordOutcome> {
    // An objection (隐私政策 第六条): nothing about this person goes to a platform, the negative signal neither.
    if (await this.d.repo.objected(e.userId)) return { queued: false, reason: 'objected' };
    if (e.step === NEGATIVE_STEP) return this.recordInvalid(e);
    const step = e.step;
    const found = await this.d.repo.latestCreditedClick(e.userId);
    if (!found) return { queued: false, reason: 'organic' };
    const { click, settings } = found;
    if (!settings) return { queued: false, reason: 'off' };
    if (settings.platform !== click.platform) return { queued: false, reason: 'other-platform' };
    const platform = settings.platform as AdPlatform;
    const earlier = await this.d.repo.countOf(e.userId, e.step, platform);
    const decision = reportDecision(settings, { step, earlier, amountFen: e.amountFen ?? null });
    if (!decision.report) return { queued: false, reason: decision.reason };
    const occurrence = settings.events[step].firstOnly ? 'first' : e.reference;
    const now = e.now ?? new Date();
    const late = !withinReportWindow(platform, click.firstSeenAt, now);
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
      ...(late ? { status: 'late' as const, lastError: '超出平台回传时限，未回传' } : {}),
    });
    if (!report) return { queued: false, reason: 'repeat' };
    return late ? { queued: false, reason: 'late', report } : { queued: true, report };
  }

  /**
   * The negative signal of an invalid lead (issue 47.3): once per person and platform, against the click its
   * 表单提交 was reported with, only when that report went or is going to the platform (a lead the platform
   * never heard of needs no correction) and the platform takes negative signals (`negativeEventCode`).
   */
  private async recordInvalid(e: StepEvent): Promise<RecordOutcome> {
    const form = await this.d.repo.formReportOf(e.userId);
    if (!form) return { queued: false, reason: 'no-negative' };
    const platform = form.report.platform as AdPlatform;
    const eventCode = negativeEventCode(platform, form.report.eventCode);
    if (eventCode === null) return { queued: false, reason: 'no-negative' };
    const now = e.now ?? new Date();
    const late = !withinReportWindow(platform, form.clickedAt, now);
    const report = await this.d.repo.insertOnce({
      userId: e.userId,
      channelCode: form.report.channelCode,
      platform,
      step: NEGATIVE_STEP,
      eventCode,
      clickId: form.report.clickId,
      valueFen: null,
      // The conversion it corrects: Baidu names it by its time; Ocean Engine's failed_lead is about that lead.
      happenedAt: form.report.happenedAt,
      idempotencyKey: `${platform}:${e.userId}:${NEGATIVE_STEP}:first`,
      nextAttemptAt: now,
      ...(late ? { status: 'late' as const, lastError: '超出平台回传时限，未回传' } : {}),
    });
    if (!report) return { queued: false, reason: 'repeat' };
    return late ? { queued: false, reason: 'late', report } : { queued: true, report };
  }

  reportsOf(userId: number): Promise<AdReportRow[]> {
    return this.d.repo.byUserAndStep(userId);
  }
}
