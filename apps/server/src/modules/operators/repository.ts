import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channels, operators } from '../../db/schema.ts';

export type OperatorRow = typeof operators.$inferSelect;

/** Operators as the person's side reads them (the console's queries are in admin-operators). */
export class OperatorRepository {
  constructor(private readonly db: Db) {}

  /** The operator record of the channel `adChannelCode`; undefined for an unknown channel or one without. */
  async findForChannel(adChannelCode: string): Promise<OperatorRow | undefined> {
    const [row] = await this.db
      .select({ operator: operators })
      .from(channels)
      .innerJoin(operators, eq(operators.id, channels.operatorId))
      .where(eq(channels.adChannelCode, adChannelCode))
      .limit(1);
    return row?.operator;
  }
}
