import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channelConversions, channels } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';

export type ChannelConversionsRow = typeof channelConversions.$inferSelect;

/** The channel a setting belongs to, with what its landing captures. */
export interface ConversionChannel {
  id: number;
  adChannelCode: string;
  trackReport: { platform: string; params: string[] } | null;
}

/** Each channel's reporting to its ad platform (`channel_conversions`, issue 47.2). */
export class ConversionSettingsRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: ConversionSettingsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new ConversionSettingsRepository(tx as unknown as Db)));
  }

  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  async channel(id: number): Promise<ConversionChannel | null> {
    const [row] = await this.db
      .select({ id: channels.id, adChannelCode: channels.adChannelCode, trackReport: channels.trackReport })
      .from(channels)
      .where(eq(channels.id, id));
    return row ?? null;
  }

  /** The settings of a channel, locked for the rest of the transaction when `forUpdate`. */
  async settings(channelId: number, forUpdate = false): Promise<ChannelConversionsRow | null> {
    const q = this.db.select().from(channelConversions).where(eq(channelConversions.channelId, channelId));
    const [row] = forUpdate ? await q.for('update') : await q;
    return row ?? null;
  }

  /** The settings of the channel with this code (null: none saved, or no such channel). */
  async settingsByCode(adChannelCode: string): Promise<ChannelConversionsRow | null> {
    const [row] = await this.db
      .select({ s: channelConversions })
      .from(channelConversions)
      .innerJoin(channels, eq(channels.id, channelConversions.channelId))
      .where(eq(channels.adChannelCode, adChannelCode));
    return row?.s ?? null;
  }

  async save(values: typeof channelConversions.$inferInsert): Promise<ChannelConversionsRow> {
    const [row] = await this.db
      .insert(channelConversions)
      .values(values)
      .onConflictDoUpdate({
        target: channelConversions.channelId,
        set: {
          enabled: values.enabled,
          platform: values.platform,
          windowDays: values.windowDays,
          events: values.events,
          credentialsEnc: values.credentialsEnc,
          updatedAt: values.updatedAt,
        },
      })
      .returning();
    return row!;
  }
}
