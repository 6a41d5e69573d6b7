import { and, asc, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { leads, partners } from '../../db/schema.ts';

/** A lender whose status query is due, claimed for one round. */
export interface DueLender {
  id: number;
  code: string;
  endpoint: string;
  secretEnc: string;
}

/** The status poller's data access (issue 47.4): which lenders are due, which of their leads to ask about. */
export class PollRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claims up to `limit` lenders due at `now` (polling on, a status query endpoint and a signing secret, their
   * next round due) by moving their next round on by their interval: two workers never poll one lender in
   * the same round (rows another worker has locked are skipped, and a claimed row is no longer due).
   */
  async claimDue(now: Date, limit: number): Promise<DueLender[]> {
    const at = now.toISOString();
    const result = await this.db.execute(sql`
      update partners set poll_next_at = ${at}::timestamptz + poll_interval_minutes * interval '1 minute'
      where id in (
        select id from partners
        where poll_enabled and status_query_endpoint is not null and signing_secret_enc is not null
          and (poll_next_at is null or poll_next_at <= ${at}::timestamptz)
        order by poll_next_at nulls first, id
        limit ${limit}
        for update skip locked)
      returning id, code, status_query_endpoint, signing_secret_enc`);
    return rowsOf<{ id: number; code: string; status_query_endpoint: string; signing_secret_enc: string }>(
      result,
    ).map((r) => ({
      id: Number(r.id),
      code: r.code,
      endpoint: r.status_query_endpoint,
      secretEnc: r.signing_secret_enc,
    }));
  }

  /**
   * The keys of this lender's leads delivered since `since` whose outcome is not final (none yet, received or
   * approved; funded, declined and duplicate are final), oldest delivery first, at most `limit`.
   */
  async leadsToAsk(partnerId: number, since: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ key: leads.idempotencyKey })
      .from(leads)
      .where(
        and(
          eq(leads.partnerId, partnerId),
          eq(leads.status, 'delivered'),
          gte(leads.deliveredAt, since),
          or(isNull(leads.outcome), inArray(leads.outcome, ['received', 'approved'])),
        ),
      )
      .orderBy(asc(leads.deliveredAt), asc(leads.id))
      .limit(limit);
    return rows.map((r) => r.key);
  }

  /** Records the end of a round: when, and why it failed (null: it succeeded). The lender's record is not "updated". */
  async finishRound(partnerId: number, at: Date, error: string | null): Promise<void> {
    await this.db
      .update(partners)
      .set({ pollLastAt: at, pollLastError: error })
      .where(eq(partners.id, partnerId));
  }
}
