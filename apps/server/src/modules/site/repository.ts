import { and, eq, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { appVersions, banners, clientReports, pageConfigs, staff } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';

export type AppVersionRow = typeof appVersions.$inferSelect;
export type BannerRow = typeof banners.$inferSelect;
export type PageConfigRow = typeof pageConfigs.$inferSelect;
export type ClientReportInsert = typeof clientReports.$inferInsert;

/** App versions, banners, page configurations, client reports and staff WeChat bindings. */
export class SiteRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: SiteRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new SiteRepository(tx as unknown as Db)));
  }

  /** An audit entry in this repository's transaction (the change and its record commit together). */
  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /** App versions published at or before `now`. */
  versionsPublishedBy(now: Date): Promise<AppVersionRow[]> {
    return this.db.select().from(appVersions).where(lte(appVersions.publishedAt, now));
  }

  /** Enabled banners of a placement showing at `now` (started, not ended). */
  bannersShowing(placement: string, now: Date): Promise<BannerRow[]> {
    return this.db
      .select()
      .from(banners)
      .where(
        and(
          eq(banners.placement, placement),
          eq(banners.enabled, true),
          lte(banners.startsAt, now),
          sql`(${banners.endsAt} is null or ${banners.endsAt} > ${now})`,
        ),
      );
  }

  async findPageConfig(code: string): Promise<PageConfigRow | undefined> {
    const [row] = await this.db.select().from(pageConfigs).where(eq(pageConfigs.code, code));
    return row;
  }

  /** A page configuration's `config` alone (undefined when there is none). */
  async pageConfigValue(code: string): Promise<PageConfigRow['config'] | undefined> {
    const [row] = await this.db
      .select({ config: pageConfigs.config })
      .from(pageConfigs)
      .where(eq(pageConfigs.code, code));
    return row?.config;
  }

  async insertClientReport(values: ClientReportInsert): Promise<void> {
    await this.db.insert(clientReports).values(values);
  }

  /** Serialises, until this transaction ends, everyone holding the same key (pg_advisory_xact_lock). */
  async lockForTransaction(key: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
  }

  /** Whether a staff member other than `staffId` holds this WeChat openid (by its blind index). */
  async openidHeldByOther(openidHash: string, staffId: number): Promise<boolean> {
    const [other] = await this.db
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.wechatOpenidHash, openidHash), ne(staff.id, staffId)))
      .limit(1);
    return Boolean(other);
  }

  /** Stores a staff member's WeChat binding; undefined when there is no such staff member. */
  async bindOpenid(
    staffId: number,
    binding: { openidEnc: string; openidHash: string; boundAt: Date },
  ): Promise<{ id: number; boundAt: Date | null } | undefined> {
    const [row] = await this.db
      .update(staff)
      .set({
        wechatOpenidEnc: binding.openidEnc,
        wechatOpenidHash: binding.openidHash,
        wechatBoundAt: binding.boundAt,
      })
      .where(eq(staff.id, staffId))
      .returning({ id: staff.id, boundAt: staff.wechatBoundAt });
    return row;
  }
}
