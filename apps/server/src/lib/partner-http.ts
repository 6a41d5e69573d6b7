import { Agent, buildConnector, request } from 'undici';
import {
  type AllowEntry,
  type EndpointRules,
  endpointProblem,
  FORBIDDEN_KIND_TEXT,
  type ForbiddenKind,
  isAllowListedOrigin,
  type Resolver,
  resolvePermitted,
  systemResolver,
} from './outbound-address.ts';

/**
 * The one HTTP client for calls to partners (lead deliveries, notices, duplicate pre-checks):
 * docs/decisions/019-outbound-partner-requests.md. An undici Agent whose connector resolves the host
 * itself, checks every address and dials only a checked one (so a DNS answer that changed since the
 * endpoint was saved is judged again, and nothing re-resolves between the check and the dial); no
 * redirect is ever followed; at most `maxAnswerBytes` of an answer are read. The timeout charges the
 * partner only for time our own event loop was free to read its answer (`partnerDeadline`, ADR 024).
 */

/** Bytes of a partner's answer read at most (the rest is discarded unread). */
export const MAX_ANSWER_BYTES = 8 * 1024;

/** Where partner calls may go: the rules, the allow-list, and the resolver. */
export class OutboundPolicy implements EndpointRules {
  readonly production: boolean;
  private readonly entries: AllowEntry[] = [];
  /** DNS for the save-time and connect-time checks; tests replace it (no test uses real DNS). */
  resolve: Resolver;
  resolveTimeoutMs: number;

  constructor(opts: {
    production: boolean;
    allow?: AllowEntry[];
    resolve?: Resolver;
    resolveTimeoutMs?: number;
  }) {
    this.production = opts.production;
    this.resolve = opts.resolve ?? systemResolver;
    this.resolveTimeoutMs = opts.resolveTimeoutMs ?? 3000;
    for (const e of opts.allow ?? []) this.permit(e);
  }

  /** The allow-list (empty in production). */
  get allow(): readonly AllowEntry[] {
    return this.entries;
  }

  /** Adds an allow-list entry (outside production only: refused in production). */
  permit(entry: AllowEntry): void {
    if (this.production) throw new Error('the outbound allow-list is refused in production');
    if (!this.entries.some((e) => e.origin === entry.origin && e.pathPrefix === entry.pathPrefix)) {
      this.entries.push(entry);
    }
  }
}

/** A partner call that did not get an answer: `reason` is our own short Chinese text, never theirs. */
export class OutboundError extends Error {
  constructor(
    readonly reason: string,
    readonly code: string,
    /** For the server log only (never stored with the attempt). */
    readonly host?: string,
    readonly address?: string,
  ) {
    super(reason);
    this.name = 'OutboundError';
  }
}

export interface PartnerAnswer {
  status: number;
  /** At most MAX_ANSWER_BYTES of the body, as UTF-8: to read a reference or a flag, never stored. */
  text: string;
}

/** What the worker and the matching service need (tests substitute it). */
export interface PartnerClient {
  post(
    url: string,
    init: { headers: Record<string, string>; body: string; timeoutMs: number },
  ): Promise<PartnerAnswer>;
}

/** The reason stored for an answer that is not a success: the status, and for a 3xx that it was not followed. */
export function statusReason(status: number): string {
  return status >= 300 && status < 400 ? `机构返回重定向（HTTP ${status}），已拒绝跟随` : `HTTP ${status}`;
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');

/**
 * An undici connector that dials only permitted addresses: allow-listed origins as they are; any
 * other host resolved by the policy's resolver, refused if any address is forbidden, else dialled by
 * address (TLS still verifies the certificate against the host name: undici takes the server name
 * from `host`, which is left as it was).
 */
export function guardedConnector(
  policy: OutboundPolicy,
  base: buildConnector.connector = buildConnector({}),
): buildConnector.connector {
  return (opts, callback) => {
    const bare = opts.hostname.replace(/^\[|\]$/g, '');
    const hostPort = `${bare.includes(':') ? `[${bare}]` : bare}:${opts.port || defaultPort(opts.protocol)}`;
    let origin: string | null = null;
    try {
      origin = new URL(`${opts.protocol}//${hostPort}`).origin;
    } catch {
      origin = null;
    }
    if (origin && isAllowListedOrigin(origin, policy)) {
      base(opts, callback);
      return;
    }
    resolvePermitted(bare, policy.resolve, policy.resolveTimeoutMs).then(
      (r) => {
        if (!r.ok) {
          callback(refusal(bare, r.kind, r.address), null);
          return;
        }
        const dial = (i: number) => {
          base({ ...opts, hostname: r.addresses[i]! }, (...args) => {
            if (args[0] && i + 1 < r.addresses.length) dial(i + 1);
            else callback(...args);
          });
        };
        dial(0);
      },
      (err: Error) => callback(err, null),
    );
  };
}

function refusal(host: string, kind: ForbiddenKind | undefined, address: string | undefined): OutboundError {
  return kind
    ? new OutboundError(
        `目标地址属于${FORBIDDEN_KIND_TEXT[kind]}，已拒绝连接`,
        'FORBIDDEN_ADDRESS',
        host,
        address,
      )
    : new OutboundError('目标域名不允许或无法解析，已拒绝连接', 'FORBIDDEN_HOST', host);
}

const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|HOSTNAME_MISMATCH)/;

/** Our short reason for a failed call (no addresses, no text of the partner's). */
export function failureReason(err: unknown, timeoutMs: number): OutboundError {
  if (err instanceof OutboundError) return err;
  const e = err as { name?: string; code?: string; cause?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  if (
    e?.name === 'TimeoutError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new OutboundError(`超时（${timeoutMs} ms）`, 'TIMEOUT');
  }
  if (e?.cause instanceof OutboundError) return e.cause;
  if (code === 'ECONNREFUSED') return new OutboundError('连接被拒绝', code);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return new OutboundError('连接被中断', code);
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new OutboundError('网络不可达', code);
  if (TLS_CODES.test(code)) return new OutboundError('TLS 证书校验失败', code);
  const safe = /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'UNKNOWN';
  return new OutboundError(`请求失败（${safe}）`, safe);
}

/** A running partner deadline: `stop()` once the call has settled. */
export interface PartnerDeadline {
  stop(): void;
  /** Milliseconds charged to the partner so far. */
  charged(): number;
}

/** The clock's tick for a timeout: a twentieth of it, between 10 and 100 ms. */
export const deadlineTickMs = (timeoutMs: number) => Math.max(10, Math.min(100, Math.floor(timeoutMs / 20)));

/**
 * Calls `onExpire` once the partner has had `timeoutMs` of time in which this process was free to
 * read its answer (ADR 024). The clock ticks every `tickMs`; each tick charges the time since the
 * previous one, but never more than the tick it asked for: when our own event loop was stalled
 * (PGlite runs queries on the server's thread, a CPU-bound request, a busy machine), the stall is
 * not charged to the partner, whose answer may have been waiting in our socket all along. Each tick
 * charges at least what it asked for when the loop is free, so the deadline always comes, after at
 * most timeoutMs / tickMs turns of our loop. When the time is up, the expiry still waits for the
 * check phase (setImmediate), after this turn's poll phase has read what the sockets hold: an answer
 * that came during the last stall is read, not thrown away (undici's connect timeout does the same).
 */
export function partnerDeadline(
  timeoutMs: number,
  onExpire: () => void,
  opts: { tickMs?: number; now?: () => number } = {},
): PartnerDeadline {
  const tickMs = opts.tickMs ?? deadlineTickMs(timeoutMs);
  const now = opts.now ?? (() => performance.now());
  let charged = 0;
  let last = now();
  let asked = 0;
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;
  let stopped = false;
  const arm = () => {
    asked = Math.max(1, Math.min(tickMs, timeoutMs - charged));
    timer = setTimeout(tick, asked);
  };
  const tick = () => {
    timer = null;
    const t = now();
    charged += Math.min(Math.max(t - last, 0), asked);
    last = t;
    if (charged < timeoutMs) {
      arm();
      return;
    }
    immediate = setImmediate(() => {
      immediate = null;
      if (stopped) return;
      stopped = true;
      onExpire();
    });
  };
  arm();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      timer = null;
      immediate = null;
    },
    charged: () => charged,
  };
}

/** The client for partner calls: `post` never follows a redirect and reads a bounded answer. */
export class PartnerHttp implements PartnerClient {
  private readonly agent: Agent;
  private readonly maxAnswerBytes: number;

  constructor(
    readonly policy: OutboundPolicy,
    opts: { connector?: buildConnector.connector; maxAnswerBytes?: number } = {},
  ) {
    this.agent = new Agent({ connect: opts.connector ?? guardedConnector(policy) });
    this.maxAnswerBytes = opts.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  }

  /**
   * POSTs `body` to `url`. Refuses, without connecting, a URL the endpoint rules refuse (a row
   * changed behind the console's back); the connector refuses a forbidden address. Answers the status
   * (3xx included: not followed) and at most `maxAnswerBytes` of the body; throws OutboundError.
   */
  async post(
    url: string,
    init: { headers: Record<string, string>; body: string; timeoutMs: number },
  ): Promise<PartnerAnswer> {
    return this.call('POST', url, init);
  }

  /** GETs `url` under the same rules as `post` (an ad platform's callback taking its data in the query). */
  async get(
    url: string,
    init: { headers: Record<string, string>; timeoutMs: number },
  ): Promise<PartnerAnswer> {
    return this.call('GET', url, init);
  }

  private async call(
    method: 'GET' | 'POST',
    url: string,
    init: { headers: Record<string, string>; body?: string; timeoutMs: number },
  ): Promise<PartnerAnswer> {
    const problem = endpointProblem(url, this.policy);
    if (problem) throw new OutboundError(`接收地址不允许：${problem}`, 'ENDPOINT_REFUSED');
    // One deadline for connect, answer and body, charging the partner only for time our loop was
    // free (ADR 024). undici's own header and body timeouts are wall-clock timers that fire after a
    // stall of ours before the answer waiting in the socket is read: they are off.
    const abort = new AbortController();
    let timedOut = false;
    const deadline = partnerDeadline(init.timeoutMs, () => {
      timedOut = true;
      abort.abort();
    });
    try {
      const res = await request(url, {
        method,
        headers: init.headers,
        ...(init.body === undefined ? {} : { body: init.body }),
        dispatcher: this.agent,
        signal: abort.signal,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const b = chunk as Buffer;
        const room = this.maxAnswerBytes - size;
        chunks.push(b.length > room ? b.subarray(0, room) : b);
        size += Math.min(b.length, room);
        if (size >= this.maxAnswerBytes) {
          res.body.destroy();
          break;
        }
      }
      return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
    } catch (err) {
      if (timedOut) throw new OutboundError(`超时（${init.timeoutMs} ms）`, 'TIMEOUT');
      throw failureReason(err, init.timeoutMs);
    } finally {
      deadline.stop();
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
