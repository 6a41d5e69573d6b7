import type { AdPlatform } from '@lm/shared/ad-clicks';
import {
  AD_REPORT_STATUSES,
  type AdReportStatus,
  REPORT_STEP_LABELS,
  type ReportStep,
} from '@lm/shared/conversions';
import type {
  ConversionReportItem,
  ConversionReportsData,
  ConversionReportsQuery,
} from '@lm/shared/schemas/conversion-reports';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import { clickRef, readRefusal, replayRefusal } from './report-rules.ts';
import type { AdReportRepository, AdReportRow } from './reports-repository.ts';

/** The console account reading: its role and, for a channel partner, the channels it is bound to. */
export interface Reader {
  role: string;
  channelCodes: readonly string[];
}

/** A report as the console lists it: nothing personal, the click masked. */
export function reportItem(report: AdReportRow, clickId: string): ConversionReportItem {
  const step = report.step as ReportStep;
  return {
    id: report.id,
    platform: report.platform as AdPlatform,
    step,
    stepLabel: REPORT_STEP_LABELS[step] ?? report.step,
    eventCode: report.eventCode,
    valueFen: report.valueFen,
    status: report.status,
    attempts: report.attempts,
    lastError: report.lastError,
    answer: report.answer,
    clickRef: clickRef(clickId),
    happenedAt: report.happenedAt.toISOString(),
    sentAt: report.sentAt?.toISOString() ?? null,
    nextAttemptAt: report.status === 'pending' ? report.nextAttemptAt.toISOString() : null,
    updatedAt: report.updatedAt.toISOString(),
  };
}

/**
 * The console's view of a channel's conversion reports (回传记录, issue 47.6) and the replay of a dead one
 * (issue 47.3): a dead report goes back to the queue — pending, attempts from zero, due now — audit-logged.
 */
export class AdReportAdminService {
  constructor(private readonly d: { repo: AdReportRepository }) {}

  /**
   * A channel's reports, newest first, with the count per status. Admin, operator and viewer read any channel;
   * a channel partner its own only (another's, or one that does not exist, is refused alike: 403).
   */
  async list(reader: Reader, channelId: number, q: ConversionReportsQuery): Promise<ConversionReportsData> {
    const channel = await this.d.repo.channelById(channelId);
    const refusal = readRefusal(reader, channel?.adChannelCode ?? null);
    if (refusal) throw appError('FORBIDDEN', refusal);
    if (!channel) throw appError('NOT_FOUND', '渠道不存在');
    const [counted, page] = await Promise.all([
      this.d.repo.countsByStatus(channel.adChannelCode, q.step),
      this.d.repo.pageOfChannel(
        channel.adChannelCode,
        { status: q.status, step: q.step },
        { limit: q.pageSize, offset: (q.page - 1) * q.pageSize },
      ),
    ]);
    const counts = Object.fromEntries(AD_REPORT_STATUSES.map((s) => [s, 0])) as Record<
      AdReportStatus,
      number
    >;
    for (const c of counted) if (c.status in counts) counts[c.status as AdReportStatus] = c.n;
    return {
      channelId: channel.id,
      adChannelCode: channel.adChannelCode,
      counts,
      total: page.total,
      page: q.page,
      pageSize: q.pageSize,
      list: page.rows.map((r) => reportItem(r.report, r.clickId)),
    };
  }

  /**
   * Sends a dead report again: it goes back to `pending` with attempts from zero, due now; the last error and
   * the platform's answer stay shown until the next attempt replaces them. Any other status is refused in
   * words (pending: already waiting; sent: accepted; late: past the platform's window, never sent).
   */
  async replay(actor: Actor, reportId: number): Promise<ConversionReportItem> {
    return this.d.repo.transaction(async (tx) => {
      const report = await tx.lockReport(reportId);
      if (!report) throw appError('NOT_FOUND', '回传记录不存在');
      const refusal = replayRefusal(report.status);
      if (refusal) throw appError('VALIDATION_FAILED', refusal);
      await tx.requeueDead(reportId, new Date());
      await tx.recordAudit(actor, {
        action: 'replay',
        entity: 'ad_report',
        entityId: reportId,
        before: {
          adChannelCode: report.channelCode,
          platform: report.platform,
          step: report.step,
          eventCode: report.eventCode,
          status: report.status,
          attempts: report.attempts,
          lastError: report.lastError,
        },
        after: { status: 'pending', attempts: 0 },
      });
      const row = await tx.withClick(reportId);
      return reportItem(row!.report, row!.clickId);
    });
  }
}
