import type { AdClick } from '@lm/shared/ad-clicks';
import { and, eq, isNotNull, isNull, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adClicks, users } from '../../db/schema.ts';

export type AdClickRow = typeof adClicks.$inferSelect;

/** Ad clicks (`ad_clicks`, ADR 069). */
export class AdClickRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records a sighting of `click` at `now` on `channelCode`: a new click with its channel and parameters,
   * a known one its latest sighting (its first channel and parameters stay). Returns the row.
   */
  async seen(click: AdClick, channelCode: string, now: Date): Promise<AdClickRow> {
    const [row] = await this.db
      .insert(adClicks)
      .values({
        platform: click.platform,
        clickId: click.clickId,
        channelCode,
        params: click.params,
        firstSeenAt: now,
        lastSeenAt: now,
      })
      .onConflictDoUpdate({
        target: [adClicks.platform, adClicks.clickId],
        set: { lastSeenAt: sql`greatest(${adClicks.lastSeenAt}, excluded.last_seen_at)` },
      })
      .returning();
    return row!;
  }

  /**
   * Credits the click to the person unless it is credited already or the person objected to conversion
   * reporting (隐私政策 第六条: no click is bound to them); true when it now is theirs.
   */
  async credit(id: number, userId: number, now: Date): Promise<boolean> {
    const objected = this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), isNotNull(users.adReportingObjectedAt)));
    const updated = await this.db
      .update(adClicks)
      .set({ userId, attributedAt: now })
      .where(and(eq(adClicks.id, id), isNull(adClicks.userId), notExists(objected)))
      .returning({ id: adClicks.id });
    if (updated.length === 1) return true;
    const [row] = await this.db.select({ userId: adClicks.userId }).from(adClicks).where(eq(adClicks.id, id));
    return row?.userId === userId;
  }

  /** The clicks under a click id (one per platform), or of one platform. */
  async find(clickId: string, platform?: string): Promise<AdClickRow[]> {
    return this.db
      .select()
      .from(adClicks)
      .where(
        platform
          ? and(eq(adClicks.clickId, clickId), eq(adClicks.platform, platform))
          : eq(adClicks.clickId, clickId),
      )
      .orderBy(adClicks.id);
  }
}
