import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema.ts';

export type EventInsert = typeof events.$inferInsert;

/** Funnel events (`events`). */
export class AnalyticsRepository {
  constructor(private readonly db: Db) {}

  /** Stores the event unless its session already reported that step; true when stored. */
  async insertEventOnce(values: EventInsert): Promise<boolean> {
    const inserted = await this.db
      .insert(events)
      .values(values)
      .onConflictDoNothing({ target: [events.sessionId, events.step] })
      .returning({ id: events.id });
    return inserted.length === 1;
  }
}
