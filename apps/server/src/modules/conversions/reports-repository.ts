import { and, count, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adClicks, adReports, channelConversions, channels, users } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';
import { claimDue } from '../delivery/repository.ts';

export type AdReportRow = typeof adReports.$inferSelect;
export type AdReportInsert = typeof adReports.$inferInsert;

/**
 * Ends a person's ad attribution (issue 47.7): reports not yet sent are dropped, and their clicks no longer
 * name them, so nothing they do or a lender reports later reaches an ad platform. What was sent stays as the
 * record of what left (click id, event, time, amount; nothing personal). Used by a cancellation and by an
 * objection to conversion reporting (隐私政策 第六条), in the caller's transaction (`db` may be one).
 */
export async function endAdAttribution(db: Db, userId: number): Promise<void> {
  await db.delete(adReports).where(and(eq(adReports.userId, userId), eq(adReports.status, 'pending')));
  await db.update(adClicks).set({ userId: null, attributedAt: null }).where(eq(adClicks.userId, userId));
}

/** The conversion reports (`ad_reports`, issue 47.3): writing them, and the worker's claims and settling. */
export class AdReportRepository {
  constructor(private readonly db: Db) {}

  /** Whether the person objected to conversion reporting (隐私政策 第六条): nothing is reported about them. */
  async objected(userId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ at: users.adReportingObjectedAt })
      .from(users)
      .where(eq(users.id, userId));
    return row?.at != null;
  }

  /** The click a person was last credited with (ADR 069), with its channel's reporting settings if any. */
  async latestCreditedClick(userId: number) {
    const [row] = await this.db
      .select({ click: adClicks, settings: channelConversions })
      .from(adClicks)
      .leftJoin(channels, eq(channels.adChannelCode, adClicks.channelCode))
      .leftJoin(channelConversions, eq(channelConversions.channelId, channels.id))
      .where(and(eq(adClicks.userId, userId), isNotNull(adClicks.attributedAt)))
      .orderBy(desc(adClicks.attributedAt), desc(adClicks.id))
      .limit(1);
    return row ?? null;
  }

  /** How many reports of this step the person has for the platform (a first-only step reports none after one). */
  async countOf(userId: number, step: string, platform: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(adReports)
      .where(and(eq(adReports.userId, userId), eq(adReports.step, step), eq(adReports.platform, platform)));
    return Number(row?.n ?? 0);
  }

  /** The person's 表单提交 report that went or is going to a platform (sent or pending), with its click's time. */
  async formReportOf(userId: number) {
    const [row] = await this.db
      .select({ report: adReports, clickedAt: adClicks.firstSeenAt })
      .from(adReports)
      .innerJoin(adClicks, eq(adClicks.id, adReports.clickId))
      .where(
        and(
          eq(adReports.userId, userId),
          eq(adReports.step, 'form'),
          inArray(adReports.status, ['sent', 'pending']),
        ),
      )
      .orderBy(desc(adReports.id))
      .limit(1);
    return row ?? null;
  }

  /** Writes a report unless one with its key exists; the row written, or null for a repeat. */
  async insertOnce(values: AdReportInsert): Promise<AdReportRow | null> {
    const [row] = await this.db.insert(adReports).values(values).onConflictDoNothing().returning();
    return row ?? null;
  }

  async byUserAndStep(userId: number) {
    return this.db.select().from(adReports).where(eq(adReports.userId, userId)).orderBy(adReports.id);
  }

  // ---- The console's view (issue 47.6) and replay of a dead report (47.3) ----

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: AdReportRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new AdReportRepository(tx as unknown as Db)));
  }

  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /** A channel's id and code (null: no such channel). */
  async channelById(id: number): Promise<{ id: number; adChannelCode: string } | null> {
    const [row] = await this.db
      .select({ id: channels.id, adChannelCode: channels.adChannelCode })
      .from(channels)
      .where(eq(channels.id, id));
    return row ?? null;
  }

  /** A channel's reports per status, of one step or all. */
  async countsByStatus(channelCode: string, step?: string): Promise<{ status: string; n: number }[]> {
    const rows = await this.db
      .select({ status: adReports.status, n: count() })
      .from(adReports)
      .where(
        and(
          eq(adReports.channelCode, channelCode),
          step === undefined ? undefined : eq(adReports.step, step),
        ),
      )
      .groupBy(adReports.status);
    return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
  }

  /** A page of a channel's reports, newest first, with the click parameter each names; and how many match. */
  async pageOfChannel(
    channelCode: string,
    filter: { status?: string | undefined; step?: string | undefined },
    page: { limit: number; offset: number },
  ) {
    const where = and(
      eq(adReports.channelCode, channelCode),
      filter.status === undefined ? undefined : eq(adReports.status, filter.status as AdReportRow['status']),
      filter.step === undefined ? undefined : eq(adReports.step, filter.step),
    );
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ report: adReports, clickId: adClicks.clickId })
        .from(adReports)
        .innerJoin(adClicks, eq(adClicks.id, adReports.clickId))
        .where(where)
        .orderBy(desc(adReports.id))
        .limit(page.limit)
        .offset(page.offset),
      this.db.select({ n: count() }).from(adReports).where(where),
    ]);
    return { rows, total: Number(total?.n ?? 0) };
  }

  /** One report with the click parameter it names (null: none). */
  async withClick(id: number) {
    const [row] = await this.db
      .select({ report: adReports, clickId: adClicks.clickId })
      .from(adReports)
      .innerJoin(adClicks, eq(adClicks.id, adReports.clickId))
      .where(eq(adReports.id, id));
    return row ?? null;
  }

  /** A report locked for the rest of the transaction (null: none). */
  async lockReport(id: number): Promise<AdReportRow | null> {
    const [row] = await this.db.select().from(adReports).where(eq(adReports.id, id)).for('update');
    return row ?? null;
  }

  /**
   * A dead report back in the queue: `pending`, attempts from zero, due now. Its last error and the platform's
   * answer stay until the next attempt replaces them. True when it was dead (and now is pending).
   */
  async requeueDead(id: number, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(adReports)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: now, lockedUntil: null, updatedAt: now })
      .where(and(eq(adReports.id, id), eq(adReports.status, 'dead')))
      .returning({ id: adReports.id });
    return rows.length === 1;
  }

  /** Claims due reports with a lease, the attempt counted at claim time (as partner notices). */
  async claim(batch: number, leaseMs: number): Promise<{ id: number; attempts: number }[]> {
    return claimDue(this.db, 'ad_reports', batch, leaseMs);
  }

  /** What a report sends: the row, its click's parameters and channel, the channel's credentials. */
  async toSend(id: number) {
    const [row] = await this.db
      .select({ report: adReports, click: adClicks, credentialsEnc: channelConversions.credentialsEnc })
      .from(adReports)
      .innerJoin(adClicks, eq(adClicks.id, adReports.clickId))
      .leftJoin(channels, eq(channels.adChannelCode, adReports.channelCode))
      .leftJoin(channelConversions, eq(channelConversions.channelId, channels.id))
      .where(eq(adReports.id, id));
    return row ?? null;
  }

  private current(c: { id: number; attempts: number }) {
    return and(eq(adReports.id, c.id), eq(adReports.attempts, c.attempts), eq(adReports.status, 'pending'));
  }

  async sent(c: { id: number; attempts: number }, answer: string, now: Date): Promise<void> {
    await this.db
      .update(adReports)
      .set({ status: 'sent', sentAt: now, lockedUntil: null, answer, lastError: null, updatedAt: now })
      .where(this.current(c));
  }

  async dead(
    c: { id: number; attempts: number },
    error: string,
    answer: string | null,
    now: Date,
  ): Promise<void> {
    await this.db
      .update(adReports)
      .set({ status: 'dead', lockedUntil: null, lastError: error, answer, updatedAt: now })
      .where(this.current(c));
  }

  async retryAt(
    c: { id: number; attempts: number },
    nextAttemptAt: Date,
    error: string,
    answer: string | null,
    now: Date,
  ): Promise<void> {
    await this.db
      .update(adReports)
      .set({ nextAttemptAt, lockedUntil: null, lastError: error, answer, updatedAt: now })
      .where(this.current(c));
  }
}
