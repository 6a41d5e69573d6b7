import { POLL_LOOKBACK_DAYS, POLL_MAX_LEADS } from '@lm/shared/schemas/outcome-polling';
import type { FastifyBaseLogger } from 'fastify';
import { decryptField, type KeyRing } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { failureReason, type PartnerClient } from '../../lib/partner-http.ts';
import { SIGNATURE_HEADER, sign, TIMESTAMP_HEADER } from '../delivery/signing.ts';
import type { DueLender, PollRepository } from './poll-repository.ts';
import { batches, readPollAnswer, statusQueryText } from './poll-rules.ts';
import type { OutcomeService } from './service.ts';

/** Lenders claimed per round. */
const LENDERS_PER_ROUND = 5;

export interface PollRound {
  /** Lenders asked this round. */
  lenders: number;
  /** Leads asked about. */
  asked: number;
  /** Outcomes that were new (not repeats of an earlier answer). */
  recorded: number;
  /** Lenders whose round failed (unreachable, refused, unreadable answer): asked again at their next round. */
  failed: number;
}

/**
 * The status poller (issue 47.4): for each lender with polling on and due (its interval passed), asks its
 * status query endpoint about its leads delivered in the last 30 days that have no final outcome, in signed
 * batches over the partner HTTP client (ADR 019: checked addresses, no redirects, timeouts), and records each
 * status through `OutcomeService.record` with a deterministic transaction id (`poll:<status>:<leadKey>`), so
 * a status answered again is a repeat that changes nothing and an approval or a loan reaches the ad platform
 * once. A round that fails stops at the first failed request and is recorded on the lender; the next round
 * comes after its interval, as any other.
 */
export class StatusPoller {
  constructor(
    private readonly d: {
      repo: PollRepository;
      outcomes: Pick<OutcomeService, 'record'>;
      http: PartnerClient;
      ring: KeyRing;
      log: FastifyBaseLogger;
      timeoutMs: number;
    },
  ) {}

  /** One round: every lender due at `now`. */
  async runOnce(now = new Date()): Promise<PollRound> {
    const round: PollRound = { lenders: 0, asked: 0, recorded: 0, failed: 0 };
    const due = await this.d.repo.claimDue(now, LENDERS_PER_ROUND);
    for (const lender of due) {
      round.lenders++;
      const { asked, recorded, error } = await this.poll(lender, now);
      round.asked += asked;
      round.recorded += recorded;
      if (error) round.failed++;
      await this.d.repo.finishRound(lender.id, new Date(), error);
    }
    return round;
  }

  private async poll(
    lender: DueLender,
    now: Date,
  ): Promise<{ asked: number; recorded: number; error: string | null }> {
    const since = new Date(now.getTime() - POLL_LOOKBACK_DAYS * 86_400_000);
    const keys = await this.d.repo.leadsToAsk(lender.id, since, POLL_MAX_LEADS);
    let asked = 0;
    let recorded = 0;
    const secret = decryptField(this.d.ring, lender.secretEnc);
    for (const batch of batches(keys)) {
      const text = statusQueryText(batch);
      const ts = Math.floor(Date.now() / 1000);
      let answer: { status: number; text: string };
      try {
        answer = await this.d.http.post(lender.endpoint, {
          headers: {
            'content-type': 'application/json',
            [TIMESTAMP_HEADER]: String(ts),
            [SIGNATURE_HEADER]: sign(secret, ts, text),
          },
          body: text,
          timeoutMs: this.d.timeoutMs,
        });
      } catch (err) {
        const e = failureReason(err, this.d.timeoutMs);
        this.d.log.warn({ partner: lender.code, code: e.code }, 'status query failed');
        return { asked, recorded, error: e.reason };
      }
      asked += batch.length;
      const read = readPollAnswer(answer.status, answer.text, batch);
      if (!read.ok) {
        this.d.log.warn({ partner: lender.code, error: read.error }, 'status query refused or unreadable');
        return { asked, recorded, error: read.error };
      }
      if (read.skipped.length)
        this.d.log.info({ partner: lender.code, skipped: read.skipped }, 'status query: results skipped');
      for (const body of read.outcomes) {
        try {
          const done = await this.d.outcomes.record(lender.id, body, new Date());
          if (!done.repeated) recorded++;
        } catch (err) {
          // An impossible step (a declined lead funded …) or a lead no longer there: the lender's word is
          // not taken, the rest of the answer is.
          if (!(err instanceof AppError)) throw err;
          this.d.log.warn(
            { partner: lender.code, lead: body.leadId, status: body.status, code: err.kind },
            'status query: outcome not recorded',
          );
        }
      }
    }
    return { asked, recorded, error: null };
  }
}
