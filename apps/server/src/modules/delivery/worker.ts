import type { FastifyBaseLogger } from 'fastify';
import { decryptField, type KeyRing } from '../../lib/crypto.ts';
import type { Metrics } from '../../lib/metrics.ts';
import {
  failureReason,
  type PartnerAnswer,
  type PartnerClient,
  statusReason,
} from '../../lib/partner-http.ts';
import { type NoticeOutcome, noticeOutcome, noticePayload } from '../privacy/rules.ts';
import type { ClaimTable, DeliveryRepository } from './repository.ts';
import { type BackoffOptions, backoffMs, sign } from './signing.ts';

export interface DeliveryConfig extends BackoffOptions {
  maxAttempts: number;
  timeoutMs: number;
  leaseMs: number;
  /** Leads claimed per round; also the most deliveries the polling worker keeps in flight. */
  batch: number;
  /**
   * The most leads of one lender the polling worker keeps in flight (default: a quarter of `batch`),
   * so a slow or hanging lender cannot take every slot and hold the others back.
   */
  partnerConcurrency?: number;
}

export interface DeliveryDeps {
  repo: DeliveryRepository;
  ring: KeyRing;
  log: FastifyBaseLogger;
  config: DeliveryConfig;
  /** Partner calls: no redirects, checked addresses, bounded answers (ADR 019). */
  http: PartnerClient;
  random?: () => number;
  /** Counts deliveries by partner and outcome. */
  metrics?: Metrics | undefined;
  /** Conversion reports to the ad platforms (issue 47.3): the third table claimed, sent by their sender. */
  reports?: {
    claim(batch: number, leaseMs: number): Promise<{ id: number; attempts: number }[]>;
    send(c: Claimed): Promise<void>;
  };
  /**
   * Status queries of lenders without outcome callbacks (issue 47.4, modules/outcomes/poller.ts): one round
   * asks every lender due; answers how many lenders it asked. Checked at most every POLL_CHECK_MS when polling.
   */
  polls?: { run(): Promise<number> };
  /**
   * The ledger's posting sweep (issue 48.3, modules/ledger/poster.ts): books the lead events not booked yet;
   * answers how many. Run at most every POSTING_CHECK_MS when polling, and in every `runOnce`.
   */
  postings?: { run(): Promise<number> };
}

/** How often the polling worker looks for lenders whose status query is due. */
const POLL_CHECK_MS = 15_000;
/** How often the polling worker books the lead events not booked yet. */
const POSTING_CHECK_MS = 2_000;

interface Claimed {
  id: number;
  attempts: number;
  /** Set when stop() gave the claim back: the delivery in flight must not settle the row. */
  released?: boolean;
}

interface ClaimedLead extends Claimed {
  partnerId: number;
}

type Outcome = 'delivered' | 'duplicate' | 'retry' | 'dead';

/** What a signed POST got: the lender's answer, or why there is none (`dead`: none can come). */
type Posted =
  | { answer: PartnerAnswer; dead?: undefined }
  | { answer?: undefined; dead: boolean; error: string };

/**
 * The lead-delivery worker (docs/matching-consent-delivery.md): claims due `pending` leads (and
 * partner notices: consent withdrawals and deletion requests, docs/privacy.md) with a lease
 * (FOR UPDATE SKIP LOCKED), posts each to its partner signed with HMAC-SHA256 and an idempotency key,
 * records every attempt, retries with exponential backoff and jitter, and gives up (`dead`) after
 * `maxAttempts`. A lead whose worker died is claimed again once its lease has passed.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  private stopped = false;
  /** Deliveries and notices the polling worker has started and not finished. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Leads in flight per lender (polling worker). */
  private readonly perPartner = new Map<number, number>();
  private noticesInFlight = 0;
  private again = false;
  /** Claims whose delivery has started and not settled (stop() releases those it stops waiting for). */
  private readonly claimedLeads = new Set<Claimed>();
  private readonly claimedNotices = new Set<Claimed>();
  private readonly claimedReports = new Set<Claimed>();
  private reportsInFlight = 0;
  /** A status-query round is running (polling worker), and when to look for due lenders again. */
  private statusPolling = false;
  private nextPollCheck = 0;
  /** A posting sweep is running (polling worker), and when to run the next. */
  private posting = false;
  private nextPostingCheck = 0;
  /** stop() stopped waiting: claims are given back, new ones at once. */
  private releasing = false;

  constructor(private readonly d: DeliveryDeps) {}

  /**
   * Claims up to `limit` due leads (attempt counted at claim time, so a crash mid-send still counts),
   * at most `perPartner` of one lender, taken in turns across lenders (each lender's oldest first),
   * none of the lenders in `skipPartners`. Two workers never claim one lead: rows another worker has
   * locked are skipped, and a row it has just claimed fails the lease check when locked.
   */
  private async claim(
    limit = this.d.config.batch,
    perPartner = limit,
    skipPartners: number[] = [],
  ): Promise<ClaimedLead[]> {
    return this.d.repo.claimLeads(limit, perPartner, skipPartners, this.d.config.leaseMs);
  }

  /** Claims due partner notices (withdrawals, deletions) the same way as leads. */
  private async claimNotices(batch = this.d.config.batch): Promise<Claimed[]> {
    return this.d.repo.claimNotices(batch, this.d.config.leaseMs);
  }

  /** Claims due conversion reports the same way (none without a report sender). */
  private async claimReports(batch = this.d.config.batch): Promise<Claimed[]> {
    return this.d.reports ? this.d.reports.claim(batch, this.d.config.leaseMs) : [];
  }

  /**
   * One round: claim and send due leads, then due partner notices, then due conversion reports, then ask the
   * lenders whose status query is due. Returns how many were attempted.
   */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((c) => this.deliver(c)));
    const notices = await this.claimNotices();
    await Promise.all(notices.map((c) => this.deliverNotice(c)));
    const reports = await this.claimReports();
    await Promise.all(reports.map((c) => this.deliverReport(c)));
    const polled = this.d.polls ? await this.d.polls.run() : 0;
    const posted = this.d.postings ? await this.d.postings.run() : 0;
    return claimed.length + notices.length + reports.length + polled + posted;
  }

  private async deliverReport(c: Claimed): Promise<void> {
    const reports = this.d.reports;
    if (!reports) return;
    await this.whileClaimed(c, 'ad_reports', this.claimedReports, () => reports.send(c));
  }

  /** Rounds until nothing is due (tests, the CLI's `--drain`). */
  async drain(maxRounds = 100): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxRounds; i++) {
      const n = await this.runOnce();
      total += n;
      if (n === 0) break;
    }
    return total;
  }

  /** Leads waiting to be delivered and the age of the oldest (metrics). */
  async queue(): Promise<{ depth: number; oldestAgeSeconds: number }> {
    return this.d.repo.queue();
  }

  private async deliver(c: Claimed): Promise<void> {
    await this.whileClaimed(c, 'leads', this.claimedLeads, () => this.deliverClaimed(c));
  }

  /**
   * Runs `work` on claim `c` of `table`, kept in `claimed` meanwhile (what stop() gives back); a
   * claim that comes in while the worker is stopping is given back at once.
   */
  private async whileClaimed(
    c: Claimed,
    table: ClaimTable,
    claimed: Set<Claimed>,
    work: () => Promise<void>,
  ): Promise<void> {
    if (this.releasing) {
      await this.giveBack(c, table);
      return;
    }
    claimed.add(c);
    try {
      await work();
    } finally {
      claimed.delete(c);
    }
  }

  private async deliverClaimed(c: Claimed): Promise<void> {
    const row = await this.d.repo.leadToSend(c.id);
    if (!row) return;

    const startedAt = new Date();
    let httpStatus: number | null = null;
    let error: string | null = null;
    let partnerRef: string | null = null;
    let outcome: Outcome;

    const sent = await this.signedPost(
      row,
      row.key,
      () =>
        JSON.stringify({
          leadId: row.key,
          productCode: row.productCode,
          productName: row.productName,
          consentedAt: row.consentedAt.toISOString(),
          agreement: { version: row.agreementVersion, textHash: row.textHash },
          autoForm: row.autoForm,
          fields: JSON.parse(decryptField(this.d.ring, row.payloadEnc)) as Record<string, unknown>,
        }),
      row.requestId,
    );
    if (sent.answer) {
      const res = sent.answer;
      httpStatus = res.status;
      // The answer is read for the partner's reference only: it is never stored (ADR 019).
      if (res.status >= 200 && res.status < 300) {
        outcome = 'delivered';
        partnerRef = refOf(res.text);
      } else if (res.status === 409) {
        outcome = 'duplicate';
      } else {
        // 3xx included: a redirect is never followed, the attempt failed.
        outcome = 'retry';
        error = statusReason(res.status);
      }
    } else {
      outcome = sent.dead ? 'dead' : 'retry';
      error = sent.error;
    }
    if (outcome === 'retry' && c.attempts >= this.d.config.maxAttempts) outcome = 'dead';

    // Given back by stop() while the partner was answering: the lead is another worker's now.
    if (c.released) return;
    this.d.metrics?.leads.inc({
      partner: row.partnerCode,
      outcome: outcome === 'duplicate' ? 'delivered' : outcome === 'retry' ? 'failed' : outcome,
    });
    const durationMs = Date.now() - startedAt.getTime();
    await this.d.repo.recordLeadAttempt({
      leadId: c.id,
      attempt: c.attempts,
      startedAt,
      durationMs,
      httpStatus,
      outcome,
      error,
    });
    // Only the claim that is still current settles the lead (a stale worker whose lease passed and
    // whose lead was claimed again does not overwrite the newer attempt): the repository checks.
    const now = new Date();
    if (outcome === 'delivered' || outcome === 'duplicate') {
      await this.d.repo.leadDelivered(c, partnerRef, now);
    } else if (outcome === 'dead') {
      await this.d.repo.leadDead(c, error, now);
      this.d.log.warn(
        { lead: c.id, partner: row.partnerCode, attempts: c.attempts, reqId: row.requestId ?? undefined },
        'lead moved to dead letters',
      );
    } else {
      const delay = backoffMs(c.attempts, this.d.config, this.d.random);
      await this.d.repo.leadRetryAt(c, new Date(now.getTime() + delay), error, now);
    }
  }

  /**
   * Sends one notice (docs/privacy.md): `{type, noticeId, leadIds, requestedAt, dueAt}` to the
   * lender's lead endpoint, signed like a lead, with the notice's idempotency key. 2xx → `sent`; a
   * deletion answered `{"deleted": true}` → `confirmed`; else retried with backoff, `dead` after
   * `maxAttempts`.
   */
  private async deliverNotice(c: Claimed): Promise<void> {
    await this.whileClaimed(c, 'partner_notices', this.claimedNotices, () => this.deliverNoticeClaimed(c));
  }

  private async deliverNoticeClaimed(c: Claimed): Promise<void> {
    const row = await this.d.repo.noticeToSend(c.id);
    if (!row) return;

    const startedAt = new Date();
    let httpStatus: number | null = null;
    let error: string | null = null;
    let outcome: NoticeOutcome | 'dead';

    const sent = await this.signedPost(row, row.key, () => JSON.stringify(noticePayload(row)), row.requestId);
    if (sent.answer) {
      httpStatus = sent.answer.status;
      outcome = noticeOutcome(row.kind, sent.answer.status, sent.answer.text);
      if (outcome === 'retry') error = statusReason(sent.answer.status);
    } else {
      outcome = sent.dead ? 'dead' : 'retry';
      error = sent.error;
    }
    if (outcome === 'retry' && c.attempts >= this.d.config.maxAttempts) outcome = 'dead';

    if (c.released) return;
    await this.d.repo.recordNoticeAttempt({
      noticeId: c.id,
      attempt: c.attempts,
      startedAt,
      durationMs: Date.now() - startedAt.getTime(),
      httpStatus,
      outcome,
      error,
    });
    // Only the current claim settles the notice; a lender's callback may already have confirmed it.
    const now = new Date();
    if (outcome === 'sent' || outcome === 'confirmed') {
      await this.d.repo.noticeAnswered(c, outcome, now);
    } else if (outcome === 'dead') {
      await this.d.repo.noticeDead(c, error, now);
      this.d.log.warn(
        { notice: c.id, partner: row.partnerCode, kind: row.kind, attempts: c.attempts },
        'partner notice moved to dead letters',
      );
    } else {
      const delay = backoffMs(c.attempts, this.d.config, this.d.random);
      await this.d.repo.noticeRetryAt(c, new Date(now.getTime() + delay), error, now);
    }
  }

  /**
   * The stored reason of a call that got no answer: our own short text (OutboundError.reason), never
   * an address or the partner's words. A refused address is logged for the operators.
   */
  /**
   * One signed POST of a lead or a notice to the lender's lead endpoint (docs/partner-api.md): JSON
   * `body()` (made only when the lender can receive it), the idempotency key, `x-lm-timestamp` and
   * `x-lm-signature` (sign: HMAC-SHA256 with the lender's secret), and the consenting request's id
   * when there is one. Answers the lender's answer, or why there is none: no endpoint or secret
   * (`dead`: no attempt can succeed), or the failure (to retry).
   */
  private async signedPost(
    to: { endpoint: string | null; secretEnc: string | null; partnerCode: string },
    key: string,
    body: () => string,
    requestId?: string | null,
  ): Promise<Posted> {
    if (!to.endpoint || !to.secretEnc) return { dead: true, error: '机构未配置接收地址或签名密钥' };
    const text = body();
    const ts = Math.floor(Date.now() / 1000);
    const secret = decryptField(this.d.ring, to.secretEnc);
    try {
      const answer = await this.d.http.post(to.endpoint, {
        headers: {
          'content-type': 'application/json',
          'idempotency-key': key,
          'x-lm-timestamp': String(ts),
          'x-lm-signature': sign(secret, ts, text),
          // The consenting request's id: the lender's logs and ours name the same request.
          ...(requestId ? { 'x-request-id': requestId } : {}),
        },
        body: text,
        timeoutMs: this.d.config.timeoutMs,
      });
      return { answer };
    } catch (err) {
      return { dead: false, error: this.failure(err, to.partnerCode) };
    }
  }

  private failure(err: unknown, partnerCode: string): string {
    const e = failureReason(err, this.d.config.timeoutMs);
    if (e.code === 'FORBIDDEN_ADDRESS' || e.code === 'FORBIDDEN_HOST' || e.code === 'ENDPOINT_REFUSED') {
      this.d.log.warn(
        { partner: partnerCode, host: e.host, address: e.address, code: e.code },
        'partner endpoint refused: not a public address',
      );
    }
    return e.reason;
  }

  /**
   * Polls every `intervalMs` until stop(), keeping up to `batch` deliveries in flight (at most
   * `partnerConcurrency` per lender) without waiting for a round's slowest one: a lead is claimed as
   * soon as a slot is free, so a lender that hangs until the timeout holds up only its own leads.
   */
  start(intervalMs: number): void {
    this.stopped = false;
    this.releasing = false;
    const tick = () => {
      if (this.stopped) return;
      void this.pump().finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, intervalMs);
      });
    };
    this.timer = setTimeout(tick, intervalMs);
  }

  /** Fills the free slots: one claim of leads, one of notices. Never runs twice at once. */
  private pump(): Promise<void> {
    if (this.stopped) return this.pumping ?? Promise.resolve();
    if (this.pumping) {
      // A slot was freed while filling: fill once more when this round ends.
      this.again = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      do {
        this.again = false;
        await this.fill().catch((err: Error) => {
          this.d.log.error({ err: { message: err.message } }, 'delivery round failed');
        });
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.pumping = null;
    });
    return this.pumping;
  }

  private async fill(): Promise<void> {
    const { batch } = this.d.config;
    const perPartner = this.d.config.partnerConcurrency ?? Math.max(1, Math.ceil(batch / 4));
    const leadsInFlight = [...this.perPartner.values()].reduce((a, b) => a + b, 0);
    if (leadsInFlight < batch) {
      const busy = [...this.perPartner].filter(([, n]) => n >= perPartner).map(([id]) => id);
      for (const c of await this.claim(batch - leadsInFlight, perPartner, busy)) {
        this.perPartner.set(c.partnerId, (this.perPartner.get(c.partnerId) ?? 0) + 1);
        this.track(this.deliver(c), () => {
          const n = (this.perPartner.get(c.partnerId) ?? 1) - 1;
          if (n > 0) this.perPartner.set(c.partnerId, n);
          else this.perPartner.delete(c.partnerId);
        });
      }
    }
    if (this.noticesInFlight < batch && !this.stopped) {
      for (const c of await this.claimNotices(batch - this.noticesInFlight)) {
        this.noticesInFlight++;
        this.track(this.deliverNotice(c), () => {
          this.noticesInFlight--;
        });
      }
    }
    if (this.reportsInFlight < batch && !this.stopped) {
      for (const c of await this.claimReports(batch - this.reportsInFlight)) {
        this.reportsInFlight++;
        this.track(this.deliverReport(c), () => {
          this.reportsInFlight--;
        });
      }
    }
    const polls = this.d.polls;
    if (polls && !this.statusPolling && !this.stopped && Date.now() >= this.nextPollCheck) {
      // One round at a time; a round that fails is logged and the lender asked again at its next round.
      this.statusPolling = true;
      this.nextPollCheck = Date.now() + POLL_CHECK_MS;
      this.track(
        polls.run().then(() => undefined),
        () => {
          this.statusPolling = false;
        },
      );
    }
    const postings = this.d.postings;
    if (postings && !this.posting && !this.stopped && Date.now() >= this.nextPostingCheck) {
      this.posting = true;
      this.nextPostingCheck = Date.now() + POSTING_CHECK_MS;
      this.track(
        postings.run().then(() => undefined),
        () => {
          this.posting = false;
        },
      );
    }
  }

  /** Keeps a started delivery until it ends; then frees its slot and fills the free slots again. */
  private track(work: Promise<void>, release: () => void): void {
    const p: Promise<void> = work
      .catch((err: Error) => {
        this.d.log.error({ err: { message: err.message } }, 'delivery failed');
      })
      .finally(() => {
        release();
        this.inFlight.delete(p);
        if (!this.stopped) void this.pump();
      });
    this.inFlight.add(p);
  }

  /**
   * Stops polling and waits for the deliveries in flight — at most `graceMs` when given: the claims
   * still in flight then are given back (lock lifted, the attempt not counted), so no lead or notice
   * stays locked until its lease passes; what their partners answer later is not recorded (the
   * idempotency key covers a lead they did receive). Returns how many claims were given back.
   */
  async stop(graceMs?: number): Promise<number> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const settled = (async () => {
      await this.pumping;
      await Promise.all([...this.inFlight]);
    })();
    if (graceMs === undefined) {
      await settled;
      return 0;
    }
    let timer: NodeJS.Timeout | undefined;
    const expired = await Promise.race([
      settled.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    return expired ? this.release() : 0;
  }

  /** Gives back the claims of deliveries in flight (see stop), and any a claim still running returns. */
  private async release(): Promise<number> {
    this.releasing = true;
    const held: { c: Claimed; table: ClaimTable }[] = [
      ...[...this.claimedLeads].map((c) => ({ c, table: 'leads' as const })),
      ...[...this.claimedNotices].map((c) => ({ c, table: 'partner_notices' as const })),
      ...[...this.claimedReports].map((c) => ({ c, table: 'ad_reports' as const })),
    ];
    let released = 0;
    for (const { c, table } of held) released += await this.giveBack(c, table);
    if (held.length > 0) {
      this.d.log.warn(
        { released, inFlight: held.length },
        'delivery worker stopped: claims in flight given back',
      );
    }
    return released;
  }

  /** Lifts one claim and uncounts its attempt, unless the row has moved on. */
  private async giveBack(c: Claimed, table: ClaimTable): Promise<number> {
    c.released = true;
    return this.d.repo.giveBack(c, table);
  }
}

/**
 * The partner's reference from its JSON answer (`id`, `leadId`, `data.id`), if any: at most 64
 * characters, control and format characters removed (it is shown in the console).
 */
export function refOf(text: string | null): string | null {
  if (!text) return null;
  try {
    const j = JSON.parse(text) as { id?: unknown; leadId?: unknown; data?: { id?: unknown } };
    const ref = j.id ?? j.data?.id ?? j.leadId;
    if (typeof ref !== 'string' && typeof ref !== 'number') return null;
    const clean = String(ref)
      .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
      .trim()
      .slice(0, 64);
    return clean || null;
  } catch {
    return null;
  }
}
