import { and, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  consents,
  leadAttempts,
  leads,
  partnerNoticeAttempts,
  partnerNotices,
  partners,
  products,
} from '../../db/schema.ts';

/** A lead or notice a worker holds: its id and the attempt its claim counted. */
export interface Claim {
  id: number;
  attempts: number;
}

export type ClaimTable = 'leads' | 'partner_notices' | 'ad_reports';

export type LeadAttemptRow = typeof leadAttempts.$inferInsert;
export type NoticeAttemptRow = typeof partnerNoticeAttempts.$inferInsert;

/**
 * Claims up to `batch` due `pending` rows of an outbox table (partner notices, conversion reports) with a lease,
 * oldest first, the attempt counted at claim time; rows another worker has locked are skipped.
 */
export async function claimDue(
  db: Db,
  table: 'partner_notices' | 'ad_reports',
  batch: number,
  leaseMs: number,
): Promise<Claim[]> {
  const t = sql.identifier(table);
  const result = await db.execute(sql`
    update ${t} set locked_until = now() + ${leaseMs} * interval '1 millisecond',
      attempts = attempts + 1, updated_at = now()
    where id in (
      select id from ${t}
      where status = 'pending' and next_attempt_at <= now()
        and (locked_until is null or locked_until <= now())
      order by next_attempt_at, id
      limit ${batch}
      for update skip locked)
    returning id, attempts`);
  return rowsOf<{ id: number | string; attempts: number }>(result).map((r) => ({
    id: Number(r.id),
    attempts: r.attempts,
  }));
}

/**
 * The delivery module's data access (issue 18): claiming due leads and notices with a lease, what a
 * delivery sends, the attempts, settling a claim, giving one back, the queue's figures, and the
 * partners' signed callbacks. "Settling" writes only when the claim is still current (same attempt,
 * still `pending`): a stale worker whose lease passed never overwrites a newer attempt.
 */
export class DeliveryRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claims up to `limit` due leads (attempt counted at claim time, so a crash mid-send still counts),
   * at most `perPartner` of one lender, taken in turns across lenders (each lender's oldest first),
   * none of the lenders in `skipPartners`. Rows another worker has locked are skipped, and a row it has
   * just claimed fails the lease check when locked.
   */
  async claimLeads(
    limit: number,
    perPartner: number,
    skipPartners: number[],
    leaseMs: number,
  ): Promise<(Claim & { partnerId: number })[]> {
    const skip = skipPartners.length
      ? sql`and partner_id not in (${sql.join(
          skipPartners.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql``;
    const result = await this.db.execute(sql`
      with picked as (
        select id from (
          select id, next_attempt_at,
                 row_number() over (partition by partner_id order by next_attempt_at, id) as turn
            from (select id, partner_id, next_attempt_at from leads
                   where status = 'pending' and next_attempt_at <= now()
                     and (locked_until is null or locked_until <= now()) ${skip}
                   order by next_attempt_at, id
                   limit ${Math.max(limit * 50, 1000)}) due
        ) ranked
        where turn <= ${perPartner}
        order by turn, next_attempt_at, id
        limit ${limit}
      ), mine as (
        select id from leads
         where id in (select id from picked) and status = 'pending'
           and (locked_until is null or locked_until <= now())
         for update skip locked
      )
      update leads set locked_until = now() + ${leaseMs} * interval '1 millisecond',
        attempts = attempts + 1, updated_at = now()
      where id in (select id from mine)
      returning id, attempts, partner_id`);
    return rowsOf<{ id: number | string; attempts: number; partner_id: number | string }>(result).map(
      (r) => ({
        id: Number(r.id),
        attempts: r.attempts,
        partnerId: Number(r.partner_id),
      }),
    );
  }

  /** Claims due partner notices (withdrawals, deletions) the same way as leads. */
  async claimNotices(batch: number, leaseMs: number): Promise<Claim[]> {
    return claimDue(this.db, 'partner_notices', batch, leaseMs);
  }

  /** Leads waiting to be delivered and the age of the oldest in seconds. */
  async queue(): Promise<{ depth: number; oldestAgeSeconds: number }> {
    const [row] = rowsOf<{ depth: number | string; oldest: number | string | null }>(
      await this.db.execute(sql`
        select count(*) as depth, extract(epoch from now() - min(created_at)) as oldest
          from leads where status = 'pending'`),
    );
    return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
  }

  /** What a lead's delivery sends, and where. */
  async leadToSend(id: number) {
    const [row] = await this.db
      .select({
        key: leads.idempotencyKey,
        payloadEnc: leads.payloadEnc,
        autoForm: leads.autoForm,
        consentedAt: consents.createdAt,
        agreementVersion: consents.agreementVersion,
        textHash: consents.textHash,
        productCode: products.code,
        productName: products.productName,
        endpoint: partners.apiEndpoint,
        secretEnc: partners.signingSecretEnc,
        partnerCode: partners.code,
        requestId: leads.requestId,
      })
      .from(leads)
      .innerJoin(consents, eq(leads.consentId, consents.id))
      .innerJoin(products, eq(leads.productId, products.id))
      .innerJoin(partners, eq(leads.partnerId, partners.id))
      .where(eq(leads.id, id))
      .limit(1);
    return row;
  }

  async recordLeadAttempt(row: LeadAttemptRow): Promise<void> {
    await this.db.insert(leadAttempts).values(row);
  }

  private currentLead(c: Claim) {
    return and(eq(leads.id, c.id), eq(leads.attempts, c.attempts), eq(leads.status, 'pending'));
  }

  async leadDelivered(c: Claim, partnerRef: string | null, now: Date): Promise<void> {
    await this.db
      .update(leads)
      .set({
        status: 'delivered',
        deliveredAt: now,
        lockedUntil: null,
        lastError: null,
        ...(partnerRef ? { partnerRef } : {}),
        updatedAt: now,
      })
      .where(this.currentLead(c));
  }

  async leadDead(c: Claim, error: string | null, now: Date): Promise<void> {
    await this.db
      .update(leads)
      .set({ status: 'dead', lockedUntil: null, lastError: error, updatedAt: now })
      .where(this.currentLead(c));
  }

  async leadRetryAt(c: Claim, nextAttemptAt: Date, error: string | null, now: Date): Promise<void> {
    await this.db
      .update(leads)
      .set({ nextAttemptAt, lockedUntil: null, lastError: error, updatedAt: now })
      .where(this.currentLead(c));
  }

  /** What a notice sends, and where. */
  async noticeToSend(id: number) {
    const [row] = await this.db
      .select({
        kind: partnerNotices.kind,
        key: partnerNotices.idempotencyKey,
        leadKeys: partnerNotices.leadKeys,
        createdAt: partnerNotices.createdAt,
        dueAt: partnerNotices.dueAt,
        requestId: partnerNotices.requestId,
        endpoint: partners.apiEndpoint,
        secretEnc: partners.signingSecretEnc,
        partnerCode: partners.code,
      })
      .from(partnerNotices)
      .innerJoin(partners, eq(partnerNotices.partnerId, partners.id))
      .where(eq(partnerNotices.id, id))
      .limit(1);
    return row;
  }

  async recordNoticeAttempt(row: NoticeAttemptRow): Promise<void> {
    await this.db.insert(partnerNoticeAttempts).values(row);
  }

  private currentNotice(c: Claim) {
    // A lender's callback may already have confirmed it.
    return and(
      eq(partnerNotices.id, c.id),
      eq(partnerNotices.attempts, c.attempts),
      eq(partnerNotices.status, 'pending'),
    );
  }

  async noticeAnswered(c: Claim, outcome: 'sent' | 'confirmed', now: Date): Promise<void> {
    await this.db
      .update(partnerNotices)
      .set({
        status: outcome,
        sentAt: now,
        ...(outcome === 'confirmed' ? { confirmedAt: now } : {}),
        lockedUntil: null,
        lastError: null,
        updatedAt: now,
      })
      .where(this.currentNotice(c));
  }

  async noticeDead(c: Claim, error: string | null, now: Date): Promise<void> {
    await this.db
      .update(partnerNotices)
      .set({ status: 'dead', lockedUntil: null, lastError: error, updatedAt: now })
      .where(this.currentNotice(c));
  }

  async noticeRetryAt(c: Claim, nextAttemptAt: Date, error: string | null, now: Date): Promise<void> {
    await this.db
      .update(partnerNotices)
      .set({ nextAttemptAt, lockedUntil: null, lastError: error, updatedAt: now })
      .where(this.currentNotice(c));
  }

  /** Lifts one claim and uncounts its attempt, unless the row has moved on; 1 when given back. */
  async giveBack(c: Claim, table: ClaimTable): Promise<number> {
    const result = await this.db.execute(sql`
      update ${sql.identifier(table)} set locked_until = null, attempts = attempts - 1, updated_at = now()
       where id = ${c.id} and attempts = ${c.attempts} and status = 'pending'
      returning id`);
    return rowsOf(result).length;
  }

  // --- partners' signed calls

  /** The partner with this code and its (encrypted) signing secrets. */
  async signingPartner(code: string) {
    const [p] = await this.db
      .select({
        id: partners.id,
        secretEnc: partners.signingSecretEnc,
        previousEnc: partners.previousSigningSecretEnc,
        rotatedAt: partners.secretRotatedAt,
        allowedHosts: partners.allowedHosts,
      })
      .from(partners)
      .where(eq(partners.code, code))
      .limit(1);
    return p;
  }

  /** Marks this partner's lead delivered with its callback; false when the partner has no such lead. */
  async recordCallback(
    partnerId: number,
    leadKey: string,
    callback: { status: string; loginUrl?: string; message?: string },
    partnerRef: string | undefined,
    now: Date,
  ): Promise<boolean> {
    const [lead] = await this.db
      .update(leads)
      .set({
        status: 'delivered',
        deliveredAt: now,
        callback,
        ...(partnerRef ? { partnerRef } : {}),
        updatedAt: now,
      })
      .where(and(eq(leads.idempotencyKey, leadKey), eq(leads.partnerId, partnerId)))
      .returning({ id: leads.id });
    return lead !== undefined;
  }
}
