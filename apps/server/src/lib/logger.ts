import type { LoggerOptions } from 'pino';

/** Query keys whose values never reach the log. */
const SENSITIVE_QUERY =
  /^(phone|mobile|encryptionMobile|rsaPhone|rp|identity|idCard|realName|name|code|token|accessToken)$/i;

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SENSITIVE_QUERY.test(key)) params.set(key, '[REDACTED]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** Paths pino redacts wherever such fields appear in a logged object (two levels deep). */
export const REDACT_PATHS = [
  'req.headers.accesstoken',
  'req.headers.authorization',
  'req.headers.cookie',
  ...[
    'phone',
    'mobile',
    'encryptionMobile',
    'identity',
    'idCard',
    'realName',
    'name',
    'token',
    'password',
    'code',
  ].flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: REDACT_PATHS.filter((p) => p !== 'code' && p !== '*.code' && p !== '*.*.code'),
      censor: '[REDACTED]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}

/** What a request's logger needs of its parent (pino's logger, as Fastify gives it). */
interface ParentLogger {
  level: string;
  levels: { values: Record<string, number> };
  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): ChildLogger;
}
type LogFn = (...args: unknown[]) => void;
interface ChildLogger {
  level: string;
  fatal: LogFn;
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
  trace: LogFn;
  silent: LogFn;
  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): ChildLogger;
}

/**
 * A request's logger that builds its pino child (bindings: the request id, ADR 026) only when the
 * request writes a line at an enabled level (issue 17.3). Most requests write nothing at `warn`/`info`
 * in production, and pino's `child` (bindings serialised through the redaction) was measurable per
 * request. Every line a request writes still comes from that child, so it carries the request id.
 * The level is the route's `logLevel` when it has one, else the parent's (read at each call, so a
 * level changed at run time applies).
 */
export class LazyRequestLogger {
  private real: ChildLogger | null = null;

  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Record<string, unknown>,
    private readonly options: { level?: string; [key: string]: unknown },
  ) {}

  /** The pino child, made on first use. */
  private get logger(): ChildLogger {
    if (this.real === null) this.real = this.parent.child(this.bindings, this.options);
    return this.real;
  }

  /** Whether the child has been built (tests). */
  get built(): boolean {
    return this.real !== null;
  }

  get level(): string {
    return this.real?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  private enabled(level: string): boolean {
    if (this.real !== null) return true;
    const values = this.parent.levels.values;
    const threshold = values[this.options.level ?? this.parent.level] ?? Number.POSITIVE_INFINITY;
    return (values[level] ?? 0) >= threshold;
  }

  fatal(...args: unknown[]): void {
    if (this.enabled('fatal')) this.logger.fatal(...args);
  }
  error(...args: unknown[]): void {
    if (this.enabled('error')) this.logger.error(...args);
  }
  warn(...args: unknown[]): void {
    if (this.enabled('warn')) this.logger.warn(...args);
  }
  info(...args: unknown[]): void {
    if (this.enabled('info')) this.logger.info(...args);
  }
  debug(...args: unknown[]): void {
    if (this.enabled('debug')) this.logger.debug(...args);
  }
  trace(...args: unknown[]): void {
    if (this.enabled('trace')) this.logger.trace(...args);
  }
  silent(): void {}

  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): ChildLogger {
    return this.logger.child(bindings, options);
  }
}
