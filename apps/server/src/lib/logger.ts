import type { IncomingMessage } from 'node:http';
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { LoggerOptions } from 'pino';

const SENSITIVE_KEYS =
  'phone|mobile|encryptionMobile|rsaPhone|rp|identity|idCard|realName|name|code|token|accessToken';
/** Query keys whose values never reach the log. */
const SENSITIVE_QUERY = new RegExp(`^(${SENSITIVE_KEYS})$`, 'i');
/**
 * A query that may hold such a key: one of them as a key as written, or any percent-encoding (a key can be
 * encoded, `%70hone`). Any other query is logged as it is, without parsing it (the ad burst's requests).
 */
const MAYBE_SENSITIVE = new RegExp(`(?:^|[?&;])(?:${SENSITIVE_KEYS})(?:[=&;]|$)|%`, 'i');

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  if (!MAYBE_SENSITIVE.test(url.slice(q))) return url;
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

  /** Whether a line at `level` would be written (pino's `isLevelEnabled`), without building the child. */
  isLevelEnabled(level: string): boolean {
    if (this.real !== null) return true;
    const values = this.parent.levels.values;
    const threshold = values[this.options.level ?? this.parent.level] ?? Number.POSITIVE_INFINITY;
    return (values[level] ?? 0) >= threshold;
  }

  fatal(...args: unknown[]): void {
    if (this.isLevelEnabled('fatal')) this.logger.fatal(...args);
  }
  error(...args: unknown[]): void {
    if (this.isLevelEnabled('error')) this.logger.error(...args);
  }
  warn(...args: unknown[]): void {
    if (this.isLevelEnabled('warn')) this.logger.warn(...args);
  }
  info(...args: unknown[]): void {
    if (this.isLevelEnabled('info')) this.logger.info(...args);
  }
  debug(...args: unknown[]): void {
    if (this.isLevelEnabled('debug')) this.logger.debug(...args);
  }
  trace(...args: unknown[]): void {
    if (this.isLevelEnabled('trace')) this.logger.trace(...args);
  }
  silent(): void {}

  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): ChildLogger {
    return this.logger.child(bindings, options);
  }
}

/** What the request-line controller needs of the app's pino logger. */
interface LineLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): LineLogger;
}

/**
 * Writes Fastify's two request lines ("incoming request", "request completed") without pino's redaction
 * (issue 17.3). With the redaction paths (REDACT_PATHS, most of them wildcards) the two lines cost ~38 µs
 * a request on the bench machine and without them ~8 µs: at the default level `info` that was ~40 % of
 * an ad-burst request's throughput. The lines hold only what this controller puts in them, each field
 * safe by construction: the request id, the method, the URL with its sensitive query values replaced
 * (redactUrl, through the `req` serializer), the client IP, the status code and the response time. No
 * header, body or route data reaches them, so nothing is left for the redaction to catch. Every other line
 * — errors, a route's own lines — goes through the request's logger and its redaction as before, and
 * a request's lines are written only when its logger (the route's `logLevel`, else the app's level) has
 * `info` on, as Fastify's own request lines are.
 */
export class RequestLineController extends LogController {
  private lines: LineLogger | null = null;

  /** The app's logger without the redaction, made on the first request line (it shares the stream). */
  private linesOf(request: FastifyRequest): LineLogger {
    this.lines ??= unredactedLines(request.server.log);
    return this.lines;
  }

  override incomingRequest(request: FastifyRequest, _reply: FastifyReply): void {
    if (!infoOn(request.log)) return;
    this.linesOf(request).info({ [this.requestIdLogLabel]: request.id, req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // An error line carries the error: through the request's logger and its redaction.
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    if (!infoOn(reply.log)) return;
    this.linesOf(request).info(
      {
        [this.requestIdLogLabel]: request.id,
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}

/** The app's logger without the redaction, for request lines only (what they hold is safe by construction). */
function unredactedLines(log: unknown): LineLogger {
  return (log as LineLogger).child({}, { redact: [], level: 'trace' });
}

/**
 * The two request lines of an answer given in front of Fastify (lib/front-answers.ts, ADR 042): the same
 * fields, the same serializer for `req` (method, URL with sensitive values replaced, client IP), the same
 * logger without the redaction as RequestLineController's, written when the app's level has `info` on.
 * `logOf`: the app's logger (it exists once the app does).
 */
export function frontRequestLines(
  logOf: () => FastifyBaseLogger,
  ipOf: (req: IncomingMessage) => string | undefined,
  idLabel = 'reqId',
) {
  let lines: LineLogger | null = null;
  const linesOf = () => {
    lines ??= unredactedLines(logOf());
    return lines;
  };
  return {
    on: () => infoOn(logOf()),
    incoming(id: string, req: IncomingMessage) {
      linesOf().info(
        { [idLabel]: id, req: { method: req.method, url: req.url, ip: ipOf(req) } },
        'incoming request',
      );
    },
    completed(id: string, status: number, ms: number) {
      linesOf().info({ [idLabel]: id, res: { statusCode: status }, responseTime: ms }, 'request completed');
    },
  };
}

function infoOn(log: unknown): boolean {
  return (log as { isLevelEnabled(level: string): boolean }).isLevelEnabled('info');
}

/**
 * The app's request logging (with a logger; without one Fastify's own shortcut, no child at all, applies):
 * a request's pino child is built only when it writes a line (LazyRequestLogger), and its two request lines
 * are written without the redaction (RequestLineController).
 */
export function requestLogging(): Pick<FastifyServerOptions, 'childLoggerFactory' | 'logController'> {
  return {
    childLoggerFactory: (parent, bindings, options) =>
      new LazyRequestLogger(
        parent as unknown as ParentLogger,
        bindings,
        options as { level?: string },
      ) as unknown as FastifyBaseLogger,
    logController: new RequestLineController(),
  };
}
