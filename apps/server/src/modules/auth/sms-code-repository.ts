import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { smsCodes } from '../../db/schema.ts';
import type { SmsPurpose } from '../../providers/sms/types.ts';

export type SmsCodeRow = typeof smsCodes.$inferSelect;

/** SMS verification codes (sms_codes): only keyed hashes of the codes are stored. */
export class SmsCodeRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores a new code and marks any earlier unused one of the same phone and purpose used, in ONE
   * statement (the update and the insert commit together); answers the new row's id. The code's `created_at`
   * is `now`, the send's time on the app's clock, which the minute unit it was counted under has too: a
   * database whose clock is behind would otherwise make the code look older than its unit, the unit an orphan
   * (`isOrphanedMinuteUnit`), and the phone's minute free again.
   */
  async replaceCode(c: {
    phoneHash: string;
    purpose: SmsPurpose;
    codeHash: string;
    expiresAt: Date;
    ip: string;
    fingerprint: string | null;
    /** The known device the code is sent to, or null (ADR 055): only codes of the same holder are replaced. */
    holderDeviceId: number | null;
    now: Date;
  }): Promise<number> {
    const [inserted] = rowsOf<{ id: number | string }>(
      await this.db.execute(sql`
        with replaced as (
          update sms_codes set used_at = ${c.now.toISOString()}::timestamptz
           where phone_hash = ${c.phoneHash} and purpose = ${c.purpose} and used_at is null
             and holder_device_id is not distinct from ${c.holderDeviceId}::bigint
        )
        insert into sms_codes (phone_hash, purpose, code_hash, created_at, expires_at, ip, fingerprint, holder_device_id)
        values (${c.phoneHash}, ${c.purpose}, ${c.codeHash}, ${c.now.toISOString()}::timestamptz,
                ${c.expiresAt.toISOString()}::timestamptz, ${c.ip}, ${c.fingerprint}, ${c.holderDeviceId}::bigint)
        returning id`),
    );
    if (!inserted) throw new Error('sms_codes insert returned no row');
    return Number(inserted.id);
  }

  /** When the latest code of the phone for the purpose was stored (used or not); null when none is kept. */
  async lastIssuedAt(phoneHash: string, purpose: SmsPurpose): Promise<Date | null> {
    const [row] = await this.db
      .select({ createdAt: smsCodes.createdAt })
      .from(smsCodes)
      .where(and(eq(smsCodes.phoneHash, phoneHash), eq(smsCodes.purpose, purpose)))
      .orderBy(desc(smsCodes.createdAt))
      .limit(1);
    return row?.createdAt ?? null;
  }

  /** Marks a code used whatever its state (a code whose SMS could not be sent). */
  async markUsed(id: number, at: Date): Promise<void> {
    await this.db.update(smsCodes).set({ usedAt: at }).where(eq(smsCodes.id, id));
  }

  /** The latest unused, unexpired code of the phone for the purpose held by `holderDeviceId` (null: unheld). */
  async findOutstanding(
    phoneHash: string,
    purpose: SmsPurpose,
    now: Date,
    holderDeviceId: number | null,
  ): Promise<SmsCodeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(smsCodes)
      .where(
        and(
          eq(smsCodes.phoneHash, phoneHash),
          eq(smsCodes.purpose, purpose),
          holderDeviceId === null
            ? isNull(smsCodes.holderDeviceId)
            : eq(smsCodes.holderDeviceId, holderDeviceId),
          isNull(smsCodes.usedAt),
          gt(smsCodes.expiresAt, now),
        ),
      )
      .orderBy(desc(smsCodes.id))
      .limit(1);
    return row;
  }

  /**
   * Counts one wrong try of an unused code in one atomic update, which burns the code (used) at the
   * `maxTries`-th; answers the tries counted, or undefined when the code was already used.
   */
  async countWrongTry(id: number, maxTries: number): Promise<number | undefined> {
    const [updated] = await this.db
      .update(smsCodes)
      .set({
        attempts: sql`${smsCodes.attempts} + 1`,
        usedAt: sql`case when ${smsCodes.attempts} + 1 >= ${maxTries} then now() else null end`,
      })
      .where(and(eq(smsCodes.id, id), isNull(smsCodes.usedAt)))
      .returning({ attempts: smsCodes.attempts });
    return updated?.attempts;
  }

  /** Consumes an unused code; false when another check consumed (or burnt) it first. */
  async consume(id: number, now: Date): Promise<boolean> {
    const consumed = await this.db
      .update(smsCodes)
      .set({ usedAt: now })
      .where(and(eq(smsCodes.id, id), isNull(smsCodes.usedAt)))
      .returning({ id: smsCodes.id });
    return consumed.length > 0;
  }

  /** Deletes every code of a phone. */
  async deleteForPhone(phoneHash: string): Promise<void> {
    await this.db.delete(smsCodes).where(eq(smsCodes.phoneHash, phoneHash));
  }
}
