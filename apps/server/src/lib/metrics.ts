import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
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
  readonly httpDuration = new RequestDurationHistogram(
    'lm_http_request_duration_seconds',
    'Time to answer an HTTP request, by method, route template and status',
    [0.005, 0.025, 0.1, 0.5, 2],
    this.registry,
  );

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
  /** Set by the app: how many answers were given in front of Fastify (ADR 042), read at scrape time. */
  frontAnswers: (() => number) | null = null;

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
    // Counted by the front itself (a number it keeps anyway) and read here: nothing more per answer.
    new Counter({
      name: 'lm_front_answers_total',
      help: 'Answers given in front of Fastify from what a route answered before (the public h5Config, ADR 042; channel pages, ADR 043)',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(metrics.frontAnswers?.() ?? 0);
      },
    });
  }

  private processMetrics = false;

  /**
   * The observer of one route template, by method and status (issue 17.3): the series of each method
   * and status is looked up in two small maps and counted in place, with no label object built, checked
   * or hashed per request. Bounded by the routes, the methods Node accepts and the statuses the app answers.
   */
  requestObserver(route: string): (method: string, status: number, seconds: number) => void {
    const children = new Map<string, Map<number, DurationSeries>>();
    const histogram = this.httpDuration;
    return (method, status, seconds) => {
      let byStatus = children.get(method);
      if (!byStatus) {
        byStatus = new Map();
        children.set(method, byStatus);
      }
      let series = byStatus.get(status);
      if (!series) {
        series = histogram.series(method, route, status);
        byStatus.set(status, series);
      }
      series.observe(seconds);
    };
  }

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

/** One labelled series of a RequestDurationHistogram: counts per bucket (the last: above every bound). */
export class DurationSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Readonly<Record<'method' | 'route' | 'status', string | number>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(seconds: number): void {
    if (!Number.isFinite(seconds)) return;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && seconds > (bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += seconds;
    this.count += 1;
  }
}

interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string | number>;
  exemplar?: null;
  value: number;
  metricName: string;
}

/**
 * The request-duration histogram, counted without prom-client's per-observation work (issue 17.3):
 * prom-client's `Histogram` builds, validates and hashes the label set on every `observe`, even through a
 * labelled child, which the profile of the ad-burst hot path showed on every request. Each series here is
 * found once per (route, method, status) and counted in place. It is a registry metric like prom-client's
 * own (`get()` answers the same shape), so the exposition is the same text: `_bucket{le=…}` cumulative,
 * `+Inf`, `_sum`, `_count`, labels after `le` in the order method, route, status.
 */
export class RequestDurationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all = new Map<string, DurationSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** The series of these labels, made on first use. */
  series(method: string, route: string, status: number): DurationSeries {
    const key = `${method} ${status} ${route}`;
    let s = this.all.get(key);
    if (!s) {
      s = new DurationSeries({ method, route, status }, this.bounds);
      this.all.set(key, s);
    }
    return s;
  }

  /** prom-client's `observe(labels, value)`, for callers outside the request path. */
  observe(labels: { method: string; route: string; status: number }, seconds: number): void {
    this.series(labels.method, labels.route, labels.status).observe(seconds);
  }

  reset(): void {
    for (const s of this.all.values()) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }

  /** What the registry writes as text: the series' labels kept apart from `le`, as prom-client does. */
  async getForPromString(): Promise<ExportedMetric> {
    const values: ExportedValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.all.values()) {
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += s.counts[i] as number;
        values.push({
          labels: { le: this.bounds[i] as number },
          sharedLabels: s.labels,
          value: acc,
          metricName: bucket,
        });
      }
      values.push({ labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: bucket });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** The JSON form (`registry.getMetricsAsJSON`): every value's labels in one object. */
  async get(): Promise<ExportedMetric> {
    const metric = await this.getForPromString();
    metric.values = metric.values.map(({ labels, sharedLabels, value, metricName }) => ({
      labels: { ...labels, ...sharedLabels },
      value,
      metricName,
      // As prom-client: buckets carry an (empty) exemplar slot, sum and count none.
      ...(metricName.endsWith('_bucket') ? { exemplar: null } : {}),
    }));
    return metric;
  }
}

interface ExportedMetric {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: ExportedValue[];
}
