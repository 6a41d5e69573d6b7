import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { AppError } from './errors.ts';

/** What the delivery queue looks like now (read at scrape time). */
export interface QueueProbe {
  /** Leads waiting to be delivered (`pending`). */
  depth: number;
  /** Seconds since the oldest waiting lead was created (0 when none waits). */
  oldestAgeSeconds: number;
}

/** Route label of requests no route matched: one value, so scanners cannot grow the series. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Prometheus metrics of one app instance (docs/operations.md). Each instance has its own registry
 * (tests build many apps in one process); the process metrics (CPU, memory, event-loop lag, GC) are
 * added only by `enableProcessMetrics`, called where the metrics listener is opened.
 */
export class Metrics {
  readonly registry = new Registry();

  /** Seconds from the request's arrival to the answer, by method, route template and status. */
  readonly httpDuration = new Histogram({
    name: 'lm_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.025, 0.1, 0.5, 2],
    registers: [this.registry],
  });

  readonly smsSends = new Counter({
    name: 'lm_sms_sends_total',
    help: 'SMS codes handed to the provider, by provider and outcome (sent, failed)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly logins = new Counter({
    name: 'lm_logins_total',
    help: 'Login attempts by kind (user, staff) and outcome (success, failure, refused)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly matches = new Counter({
    name: 'lm_matches_total',
    help: 'Match runs by outcome (offers: at least one lender; none)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly consents = new Counter({
    name: 'lm_consents_total',
    help: 'Per-lender consent answers by outcome (consented, declined)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly leads = new Counter({
    name: 'lm_lead_deliveries_total',
    help: 'Lead delivery attempts by partner and outcome (delivered, failed: retried later, dead: dead-lettered)',
    labelNames: ['partner', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'lm_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by limit (the key without its address, person or device)',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  /** Set by the services: reads the delivery queue at scrape time. */
  queueProbe: (() => Promise<QueueProbe>) | null = null;
  /** Set by the services when Redis is configured: whether limits are counted in the database. */
  redisFallback: (() => boolean) | null = null;

  constructor() {
    const metrics = this;
    let last: Promise<QueueProbe> | null = null;
    // Both queue gauges come from one query per scrape.
    const probe = () => {
      if (!metrics.queueProbe) return Promise.resolve({ depth: 0, oldestAgeSeconds: 0 });
      last ??= metrics.queueProbe().finally(() => {
        setImmediate(() => {
          last = null;
        });
      });
      return last;
    };
    new Gauge({
      name: 'lm_delivery_queue_depth',
      help: 'Leads waiting to be delivered to an API lender (pending)',
      registers: [this.registry],
      async collect() {
        this.set((await probe()).depth);
      },
    });
    new Gauge({
      name: 'lm_delivery_queue_oldest_age_seconds',
      help: 'Age of the oldest lead waiting to be delivered (0 when none waits)',
      registers: [this.registry],
      async collect() {
        this.set((await probe()).oldestAgeSeconds);
      },
    });
    new Gauge({
      name: 'lm_redis_fallback',
      help: '1 while Redis is unreachable and limits are counted in the database; 0 otherwise or without Redis',
      registers: [this.registry],
      collect() {
        this.set(metrics.redisFallback?.() ? 1 : 0);
      },
    });
  }

  private processMetrics = false;

  /** CPU, memory, event-loop lag, GC, handles (prom-client's default set), once. */
  enableProcessMetrics(): void {
    if (this.processMetrics) return;
    this.processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  /** Counts a refusal of the limit behind `key` (see `limitName`). */
  refused(key: string): void {
    this.rateLimited.inc({ limit: limitName(key) });
  }
}

/** Key segments after which what follows identifies someone (an address, a person, a device). */
const SUBJECT = new Set(['ip', 'user', 'device', 'dev', 'staff', 'phone-hash', 'fail', 'pwfail']);
const WORD = /^[a-z][a-z_-]{0,31}$/;

/**
 * The limit a limiter key belongs to, without whom it counts: `click:ip:1.2.3.4` → `click:ip`,
 * `sms:phone:minute:login:<hash>` → `sms:phone:minute:login`, `upload-policy:u12` → `upload-policy`.
 * Leading lower-case words only, up to and including the first subject word (ip, user, device …),
 * at most four: an address, id, date or hash never becomes a label value.
 */
export function limitName(key: string): string {
  const parts = key.split(':');
  const kept: string[] = [];
  for (let i = 0; i < parts.length && kept.length < 4; i++) {
    const part = parts[i]!;
    if (!WORD.test(part)) break;
    kept.push(part);
    if (i > 0 && SUBJECT.has(part)) break;
  }
  return kept.length > 0 ? kept.join(':') : 'other';
}

/** A login's outcome from what it threw: refused (a rate limit), failure (wrong code …) or error. */
export function loginOutcome(err: unknown): 'refused' | 'failure' | 'error' {
  if (err instanceof AppError) return err.kind === 'RATE_LIMITED' ? 'refused' : 'failure';
  return 'error';
}
