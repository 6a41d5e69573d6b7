import type { AdPlatform } from '@lm/shared/ad-clicks';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adSandboxEvents } from '../../db/schema.ts';
import { appError } from '../../lib/errors.ts';

export type AdSandboxEventRow = typeof adSandboxEvents.$inferSelect;

/** One event a sandbox accepted. */
export interface SandboxEvent {
  clickId: string;
  eventType: string;
  valueFen: number | null;
  request: Record<string, unknown>;
}

/** How long a signed time may be off the sandbox's clock, as the platforms allow (Tencent: a few minutes). */
const CLOCK_SKEW_S = 600;

/**
 * The local ad platforms (issue 47.3, outside production): each takes its platform's request, already checked
 * for shape by the route's schema, checks what the schema cannot (Tencent's request time), and keeps what it
 * accepted, listed back by `events`.
 */
export class AdSandboxRepository {
  constructor(private readonly db: Db) {}

  async accept(platform: AdPlatform, events: SandboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.insert(adSandboxEvents).values(events.map((e) => ({ platform, ...e })));
  }

  /** Tencent refuses a request whose `timestamp` is far from its clock. */
  checkFresh(timestampS: number, now = new Date()): void {
    if (Math.abs(now.getTime() / 1000 - timestampS) > CLOCK_SKEW_S)
      throw appError('VALIDATION_FAILED', 'timestamp 与服务器时间相差过大');
  }

  /** What `platform` accepted, oldest first, of one click when given. */
  async events(platform: AdPlatform, clickId?: string): Promise<AdSandboxEventRow[]> {
    return this.db
      .select()
      .from(adSandboxEvents)
      .where(
        clickId
          ? and(eq(adSandboxEvents.platform, platform), eq(adSandboxEvents.clickId, clickId))
          : eq(adSandboxEvents.platform, platform),
      )
      .orderBy(asc(adSandboxEvents.id))
      .limit(500);
  }
}

/** Yuan with two decimals (a number or its text) → fen, without floating error. */
export function fenOfYuan(yuan: number | string): number {
  const [whole, frac = ''] = (typeof yuan === 'number' ? yuan.toFixed(2) : yuan).split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
}
