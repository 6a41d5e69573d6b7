import type { Redis } from 'ioredis';
import type { Database } from '../../db/client.ts';
import type { SystemRepository } from './repository.ts';

export interface Health {
  status: 'ok' | 'degraded';
  db: 'ok' | 'down';
  redis: 'ok' | 'down' | 'not configured';
  uptimeSeconds: number;
}

export interface OutboxMessage {
  mobile: string;
  message: string;
  code: string | null;
  createdAt: string;
}

/** The public health check and the dev outbox of the console SMS provider. */
export class SystemService {
  constructor(
    private readonly d: {
      /** Pinged by the health check. */
      database: Database;
      repo: SystemRepository;
      redis: Redis | null;
      phoneIndex(phone: string): string;
    },
  ) {}

  /** The database (and Redis when configured) answer: `ok`; either down: `degraded`. */
  async health(): Promise<Health> {
    const db = await this.d.database.ping().then(
      () => 'ok' as const,
      () => 'down' as const,
    );
    let redis: Health['redis'] = 'not configured';
    if (this.d.redis) {
      redis = await this.d.redis.ping().then(
        () => 'ok' as const,
        () => 'down' as const,
      );
    }
    const status = db === 'ok' && redis !== 'down' ? 'ok' : 'degraded';
    return { status, db, redis, uptimeSeconds: Math.round(process.uptime()) };
  }

  /** The last 20 messages the console SMS provider "sent" to `phone`, newest first, phone masked. */
  async outbox(phone: string): Promise<OutboxMessage[]> {
    const rows = await this.d.repo.latestOutboxOf(this.d.phoneIndex(phone), 20);
    return rows.map((r) => ({
      mobile: r.phoneMasked,
      message: r.message,
      code: /(\d{6})/.exec(r.message)?.[1] ?? null,
      createdAt: r.createdAt.toISOString(),
    }));
  }
}
