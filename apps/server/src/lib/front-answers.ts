import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { preferredEncoding } from './web-ssr.ts';

/** An encoding a front answer comes in (`identity`: as it is). */
export type FrontEncoding = 'br' | 'gzip' | 'identity';

/** One form of a front answer: its headers after the request id, in the order the route sends them, and the body. */
export interface FrontVariant {
  /** Header names and values alternating (`[name, value, name, value, …]`), content-length included. */
  headers: readonly string[];
  body: Buffer;
}

/**
 * An answer the route gave for one exact address, kept to be given again without the framework: the route
 * hands it over after answering (`FrontAnswers.offer`). `current()` is asked before every use: it is true
 * while what the route answered from is still what it would answer from now (the same cached object), so an
 * edit, an expiry or an invalidation sends the next request back to the route.
 */
export interface FrontAnswer {
  /** The route's template, for the request histogram. */
  route: string;
  current(): boolean;
  /** The answer in an encoding (made on first demand by the route's own code). */
  variant(encoding: FrontEncoding): FrontVariant;
}

/** An answer a front route gives: its status, its headers after the request id (content-length included), its body. */
export interface FrontReply {
  status: number;
  /** Header names and values alternating, in the order the route's own answer has them. */
  headers: readonly string[];
  body: Buffer;
}

/** What a front route is told of the request besides its query (computed as the app computes them). */
export interface FrontRequest {
  /** The request's id (its `x-request-id`), as the app's genReqId makes it. */
  readonly id: string;
  /** The client's address, as Fastify's `request.ip` gives it under the app's TRUST_PROXY. */
  ip(): string | undefined;
}

/**
 * A route whose own module answers it in front of the framework (ADR 046): the ad burst's click report, whose
 * answer depends on the request, so it cannot be an answer kept for an address. For a GET of the route's path
 * with a query, `take` either returns undefined having done nothing (the framework then answers the request,
 * as for a query the route's schema refuses) or takes the request: it returns the answer, or a promise of it
 * that resolves for every outcome (an error is an answer too: the app's envelope, made by the same function as
 * the framework's error handler uses).
 */
export interface FrontRoute {
  /** The route's template, for the request histogram. */
  route: string;
  take(
    query: string,
    req: IncomingMessage,
    request: FrontRequest,
  ): FrontReply | Promise<FrontReply> | undefined;
}

/** What the front needs of the app around it. */
export interface FrontDeps {
  /** The request id, as the app's genReqId makes it (a trusted proxy's X-Request-Id, else a new one). */
  requestId(req: IncomingMessage): string;
  /** The client's address, as Fastify's `request.ip` (for front routes). */
  clientIp(req: IncomingMessage): string | undefined;
  /** Draining or closing: every request goes to the framework (it says `connection: close`, or 503). */
  closing(): boolean;
  /** The request histogram's observer for a route template. */
  observer(route: string): (method: string, status: number, seconds: number) => void;
  /** The app's two request lines, written when its level has `info` on (lib/logger.ts requestLineWriter). */
  lines: {
    on(): boolean;
    incoming(id: string, req: IncomingMessage): void;
    completed(id: string, status: number, ms: number): void;
  };
}

/** At most this many addresses are kept (a channel code is part of the address; only known ones are offered). */
export const FRONT_ANSWER_LIMIT = 4096;

/**
 * What a family of addresses answered alike is kept under: the key of an address, or null when the address is
 * not one of the family's (or not one the family's route would answer alike). Synchronous and cheap: it runs
 * for every GET the exact addresses do not answer.
 */
export type FrontKeyOf = (url: string) => string | null;

/**
 * Addresses answered alike whatever else they hold (the channel pages: an ad link's per-click parameters, such
 * as `clickid` or `callback`, do not change the page). The route offers its answer for the request's address;
 * the family keeps it under the address's key, and answers every address with that key.
 */
export interface FrontFamily {
  /** Keeps the route's answer for every address with the key of `url`, if it has one and is current. */
  offer(url: string, answer: FrontAnswer): void;
  /** Answers kept. */
  readonly size: number;
}

/** A family's answers: its key function and its own map, bounded (the oldest offered key leaves first). */
class Family implements FrontFamily {
  readonly answers = new Map<string, FrontAnswer>();

  constructor(
    readonly keyOf: FrontKeyOf,
    private readonly limit: number,
    private readonly accepts: (answer: FrontAnswer) => boolean,
  ) {}

  offer(url: string, answer: FrontAnswer): void {
    if (!this.accepts(answer)) return;
    const key = this.keyOf(url);
    if (key === null) return;
    if (!this.answers.delete(key) && this.answers.size >= this.limit) {
      const oldest = this.answers.keys().next();
      if (!oldest.done) this.answers.delete(oldest.value);
    }
    this.answers.set(key, answer);
  }

  get size(): number {
    return this.answers.size;
  }
}

/**
 * Answers given again in front of the framework (issue 17.3, ADRs 042 and 043): the ad burst's cached GETs
 * (h5Config by its exact address, a channel's landing and login pages by a family key that leaves out an ad
 * link's per-click parameters) answered by the Node server's request listener from the bytes the route itself
 * produced — the same status, headers in the same order and body — instead of through Fastify's routing,
 * request and reply objects, validation and hooks. A conditional request (`if-none-match`) is the route's.
 * What Fastify's path does for such a request and the answer needs is done here the same way: the request id (with its header), the request histogram, the request lines at `info`.
 * Anything else — another method or address, an answer no longer current, a draining or closing instance —
 * goes to Fastify, which remains the one implementation of every route; an address is here only after the
 * route answered it and offered its answer.
 * A front route (ADR 046: the click report) is the other way in: its module's own functions take a GET of its
 * path here, with the same request id, histogram and request lines, or leave it to Fastify.
 */
export class FrontAnswers {
  private readonly answers = new Map<string, FrontAnswer>();
  private readonly families: Family[] = [];
  private readonly routes = new Map<string, FrontRoute>();
  private readonly observers = new Map<string, (method: string, status: number, seconds: number) => void>();
  private enabled = true;
  /** Answers given here (tests, and the bench's check that the front was used). */
  served = 0;

  constructor(private readonly deps: FrontDeps) {}

  /** Keeps the route's answer for exactly `url` (the request's address as it arrived), if it is current. */
  offer(url: string, answer: FrontAnswer): void {
    if (!this.accepts(answer)) return;
    if (!this.answers.has(url) && this.answers.size >= FRONT_ANSWER_LIMIT) return;
    this.answers.set(url, answer);
  }

  /**
   * A family of addresses answered alike (lib comment on FrontFamily): its answers are looked up by
   * `keyOf(url)` for a GET no exact address answers; at most `limit` keys are kept.
   */
  family(keyOf: FrontKeyOf, limit: number): FrontFamily {
    const family = new Family(keyOf, limit, (answer) => this.accepts(answer));
    this.families.push(family);
    return family;
  }

  /**
   * GETs of `path` with a query are offered to `route` first (ADR 046); what it does not take goes to the
   * framework. One route per path.
   */
  route(path: string, route: FrontRoute): void {
    if (this.routes.has(path)) throw new Error(`${path} has a front route already`);
    this.routes.set(path, route);
  }

  /** Stops answering (the app is closing): from now on every request goes to the framework. */
  disable(): void {
    this.enabled = false;
    this.answers.clear();
    for (const family of this.families) family.answers.clear();
  }

  /** Exact addresses kept. */
  get size(): number {
    return this.answers.size;
  }

  /** An answer is taken only while the front answers at all and the answer is current. */
  private accepts(answer: FrontAnswer): boolean {
    return this.enabled && !this.deps.closing() && answer.current();
  }

  /**
   * The server's request listener in front of the framework's: answers and returns true, or returns false
   * (having written nothing) for the framework to answer.
   */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || !this.enabled) return false;
    const url = req.url;
    if (url === undefined) return false;
    let kept = this.answers;
    let key: string | null = url;
    let answer = kept.get(url);
    if (answer === undefined) {
      if (this.routes.size > 0) {
        const mark = url.indexOf('?');
        const route = mark === -1 ? undefined : this.routes.get(url.slice(0, mark));
        if (route !== undefined) return this.take(route, url.slice(mark + 1), req, res);
      }
      for (const family of this.families) {
        key = family.keyOf(url);
        if (key === null) continue;
        answer = family.answers.get(key);
        if (answer !== undefined) {
          kept = family.answers;
          break;
        }
      }
      if (answer === undefined || key === null) return false;
    }
    if (!answer.current()) {
      kept.delete(key);
      return false;
    }
    if (this.deps.closing()) return false;
    // A conditional request is the route's (a page's etag answers 304 there).
    if (req.headers['if-none-match'] !== undefined) return false;
    const started = performance.now();
    const id = this.deps.requestId(req);
    const lines = this.deps.lines.on();
    if (lines) this.deps.lines.incoming(id, req);
    const encoding = preferredEncoding(req.headers['accept-encoding']) ?? 'identity';
    const variant = answer.variant(encoding);
    // The request id's header first, as the app's onRequest hook sets it before anything else.
    res.writeHead(200, ['x-request-id', id, ...variant.headers]);
    res.end(variant.body);
    this.served++;
    const ms = performance.now() - started;
    this.observerOf(answer.route)('GET', 200, ms / 1000);
    if (lines) this.deps.lines.completed(id, 200, ms);
    return true;
  }

  /**
   * A front route's request: taken (answered now or when its promise resolves), or left to the framework. No
   * closure is made for a request answered at once (the click's common case): its state is one `TakenRequest`.
   */
  private take(route: FrontRoute, query: string, req: IncomingMessage, res: ServerResponse): boolean {
    if (this.deps.closing()) return false;
    const taken = new TakenRequest(this, route, req, res, this.deps.requestId(req), performance.now());
    let reply: FrontReply | Promise<FrontReply> | undefined;
    try {
      reply = route.take(query, req, taken);
    } catch {
      // A route that throws before it takes the request leaves it to the framework's route and error handler.
      return false;
    }
    if (reply === undefined) return false;
    taken.lines = this.deps.lines.on();
    if (taken.lines) this.deps.lines.incoming(taken.id, req);
    if (reply instanceof Promise) {
      reply.then(
        (r) => taken.write(r),
        (err: unknown) => {
          // A route's promise resolves for every outcome (FrontRoute); were it to reject, the client is not
          // left waiting.
          res.destroy(err instanceof Error ? err : new Error(String(err)));
        },
      );
    } else taken.write(reply);
    return true;
  }

  /** A taken request's answer was written (`TakenRequest.write`): counted, observed, its line written. */
  completed(taken: TakenRequest, status: number): void {
    this.served++;
    const ms = performance.now() - taken.started;
    this.observerOf(taken.route.route)('GET', status, ms / 1000);
    if (taken.lines) this.deps.lines.completed(taken.id, status, ms);
  }

  /** The client's address of a front route's request (`FrontRequest.ip`). */
  clientIp(req: IncomingMessage): string | undefined {
    return this.deps.clientIp(req);
  }

  private observerOf(route: string) {
    let observe = this.observers.get(route);
    if (observe === undefined) {
      observe = this.deps.observer(route);
      this.observers.set(route, observe);
    }
    return observe;
  }
}

/** A request a front route took: what the route is told of it (`FrontRequest`) and what its answer needs. */
class TakenRequest implements FrontRequest {
  /** Whether the app's request lines are on (read once the route took the request). */
  lines = false;

  constructor(
    private readonly front: FrontAnswers,
    readonly route: FrontRoute,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly id: string,
    readonly started: number,
  ) {}

  ip(): string | undefined {
    return this.front.clientIp(this.req);
  }

  write(r: FrontReply): void {
    this.res.writeHead(r.status, ['x-request-id', this.id, ...r.headers]);
    this.res.end(r.body);
    this.front.completed(this, r.status);
  }
}
