import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { knownDevices } from '../../db/schema.ts';
import { newToken, sha256 } from '../../lib/crypto.ts';
import { KNOWN_DEVICE_TTL_DAYS, knownDeviceFits } from './rules.ts';

export type SubjectKind = 'user' | 'staff';
export type KnownDeviceRow = typeof knownDevices.$inferSelect;

/**
 * Devices that logged in (known_devices, ADR 055): a random token, stored as its SHA-256, bound to a subject and
 * its phone, valid KNOWN_DEVICE_TTL_DAYS from its last login.
 */
export class KnownDeviceRepository {
  constructor(private readonly db: Db) {}

  /**
   * The device of `token` if it belongs to `want` (kind, phone, and the subject's id when given) and is not
   * expired; undefined otherwise (unknown, someone else's, another phone, expired).
   */
  async find(
    token: string | undefined,
    want: { subjectKind: SubjectKind; phoneHash: string; subjectId?: number | undefined },
    now = new Date(),
  ): Promise<KnownDeviceRow | undefined> {
    if (!token) return undefined;
    const [row] = await this.db
      .select()
      .from(knownDevices)
      .where(eq(knownDevices.tokenHash, sha256(token)))
      .limit(1);
    return knownDeviceFits(row, want, now) ? row : undefined;
  }

  /**
   * After a successful login: the presented device again (its use and expiry renewed) when it is the subject's,
   * else a new one. Answers the token the client keeps.
   */
  async remember(
    presented: string | undefined,
    s: { subjectKind: SubjectKind; subjectId: number; phoneHash: string },
    now = new Date(),
  ): Promise<string> {
    const expiresAt = new Date(now.getTime() + KNOWN_DEVICE_TTL_DAYS * 86_400_000);
    const known = await this.find(presented, s, now);
    if (known && presented) {
      await this.db
        .update(knownDevices)
        .set({ lastUsedAt: now, expiresAt })
        .where(eq(knownDevices.id, known.id));
      return presented;
    }
    const token = newToken();
    await this.db.insert(knownDevices).values({
      tokenHash: sha256(token),
      subjectKind: s.subjectKind,
      subjectId: s.subjectId,
      phoneHash: s.phoneHash,
      createdAt: now,
      lastUsedAt: now,
      expiresAt,
    });
    return token;
  }

  /** Forgets every device of a subject (account cancellation). */
  async forget(subjectKind: SubjectKind, subjectId: number): Promise<void> {
    await this.db
      .delete(knownDevices)
      .where(and(eq(knownDevices.subjectKind, subjectKind), eq(knownDevices.subjectId, subjectId)));
  }
}
