import type { AdPlatform } from '@lm/shared/ad-clicks';
import { NEGATIVE_STEP } from '@lm/shared/conversions';
import type { FastifyBaseLogger } from 'fastify';
import { decryptField, type KeyRing } from '../../lib/crypto.ts';
import { failureReason, type PartnerAnswer } from '../../lib/partner-http.ts';
import { type BackoffOptions, backoffMs } from '../delivery/signing.ts';
import { PLATFORM_ADAPTERS } from './platforms/index.ts';
import type { PlatformVerdict } from './platforms/types.ts';
import type { AdReportRepository } from './reports-repository.ts';

/** The HTTP of the reports: the partner client (ADR 019: checked addresses, no redirects, a deadline). */
export interface ReportHttp {
  post(
    url: string,
    init: { headers: Record<string, string>; body: string; timeoutMs: number },
  ): Promise<PartnerAnswer>;
  get(url: string, init: { headers: Record<string, string>; timeoutMs: number }): Promise<PartnerAnswer>;
}

export interface ReportSenderDeps {
  repo: AdReportRepository;
  ring: KeyRing;
  http: ReportHttp;
  log: FastifyBaseLogger;
  config: BackoffOptions & { maxAttempts: number; timeoutMs: number };
  /** Where a platform's API is: its origin in production, the local sandbox elsewhere. */
  base: (platform: AdPlatform) => string;
  /** Our public origin (Baidu's logidUrl is the landing URL of the click). */
  publicOrigin: () => string;
  random?: () => number;
}

/** A report a worker holds. */
export interface ClaimedReport {
  id: number;
  attempts: number;
  released?: boolean;
}

/**
 * Sends one claimed conversion report (issue 47.3) with its platform's adapter: accepted → `sent`; refused
 * for good (the platform's error code, a 4xx) → `dead`; no answer, 5xx or 429 → again with backoff, `dead`
 * after the attempt limit. The platform's answer is kept short (200 characters) for the console.
 */
export class AdReportSender {
  constructor(private readonly d: ReportSenderDeps) {}

  async send(c: ClaimedReport): Promise<void> {
    const row = await this.d.repo.toSend(c.id);
    if (!row) return;
    const { report, click } = row;
    const platform = report.platform as AdPlatform;
    const adapter = PLATFORM_ADAPTERS[platform];
    let credentials: Record<string, string> = {};
    if (row.credentialsEnc) {
      const stored = JSON.parse(decryptField(this.d.ring, row.credentialsEnc)) as {
        platform: string;
        values: Record<string, string>;
      };
      if (stored.platform === platform) credentials = stored.values;
    }
    const landing = new URLSearchParams({ adChannelCode: report.channelCode, ...click.params });
    const now = new Date();
    const req = adapter.request(
      {
        platform,
        eventCode: report.eventCode,
        negative: report.step === NEGATIVE_STEP,
        clickParams: click.params,
        valueFen: report.valueFen,
        happenedAt: report.happenedAt,
        credentials,
        landingUrl: `${this.d.publicOrigin()}/?${landing.toString()}`,
        nonce: `r${report.id}a${c.attempts}`,
        now,
      },
      this.d.base(platform),
    );

    let verdict: PlatformVerdict;
    let answer: string | null = null;
    try {
      const init = { headers: req.headers, timeoutMs: this.d.config.timeoutMs };
      const res =
        req.method === 'GET'
          ? await this.d.http.get(req.url, init)
          : await this.d.http.post(req.url, { ...init, body: req.body ?? '' });
      answer = res.text.slice(0, 200);
      verdict = adapter.verdict(res.status, res.text);
    } catch (err) {
      verdict = { ok: false, retry: true, error: failureReason(err, this.d.config.timeoutMs).reason };
    }
    // Given back by stop() while the platform was answering: the report is another worker's now.
    if (c.released) return;
    const done = new Date();
    if (verdict.ok) {
      await this.d.repo.sent(c, answer ?? '', done);
    } else if (!verdict.retry || c.attempts >= this.d.config.maxAttempts) {
      await this.d.repo.dead(c, verdict.error, answer, done);
      this.d.log.warn(
        { report: c.id, platform, step: report.step, attempts: c.attempts, error: verdict.error },
        'conversion report moved to dead letters',
      );
    } else {
      const delay = backoffMs(c.attempts, this.d.config, this.d.random);
      await this.d.repo.retryAt(c, new Date(done.getTime() + delay), verdict.error, answer, done);
    }
  }
}
