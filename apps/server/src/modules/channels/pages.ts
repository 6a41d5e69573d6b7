/**
 * A channel's landing and login pages in its skin, in the first HTML (issue 17.1, ADR 022).
 *
 * `/`, `/download`, `/login`, `/getQuota` and `/h5` opened with a channel code (`adChannelCode`,
 * `source`, `apiChannelCode`) or a route code (`adRouteCode`) are answered with the page the app would
 * render for that channel — layout, colours, title, copy, footer — and the channel's h5Config inlined, so
 * the app starts without asking for it; a link without any code gets the default configuration's page
 * (ADR 065). Everything else is rendered by the app (index.html): an unknown or closed channel, a route
 * code that is unknown or sends the visitor elsewhere, the console's preview, a link whose query changes
 * the markup (a phone in it), or no render build.
 *
 * A page is rendered once per (address, skin, channel configuration, build) and kept in memory with its
 * brotli and gzip encodings. The configuration is part of the key: a console edit invalidates the
 * channel's configuration (ChannelService.invalidate, shared by every instance through Redis) and the
 * next request renders the new page. Pages are never stored per visitor: an A/B channel has one page
 * per arm.
 *
 * A page the same for everybody is marked for a shared cache (nginx's micro-cache, ADR 062) under a key of
 * the path and the codes the link names, not its per-click parameters (`sharedPageKey`).
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { type H5Config, pickChannelCode, ROUTE_CODE_QUERY_KEY } from '@lm/shared/channel';
import { channelPageQuery, h5ConfigData } from '@lm/shared/schemas/channel';
import { AppError } from '../../lib/errors.ts';
import type { ChannelPageRenderer, InlinedRoute } from '../../lib/web-ssr.ts';
import { H5_CONFIG_TTL_SECONDS } from './cache.ts';
import type { ChannelService, H5Answer } from './service.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A rendered page with its encodings (computed once, when it is rendered). */
export interface ChannelPage {
  /** Strong validator of the page (its bytes). */
  etag: string;
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export interface ChannelPagesDeps {
  channels: Pick<ChannelService, 'h5Answer' | 'exchange' | 'invalidations'>;
  renderer: ChannelPageRenderer;
  log: { warn(obj: object, msg: string): void };
  /** Pages kept (oldest dropped first). */
  maxPages?: number;
  now?: () => number;
}

/** What the link names: the channel and, for a route code, the server's exchange of it. */
export interface PageChannel {
  code: string;
  route: InlinedRoute | null;
}

/** Checked channel keys of page addresses (an ad burst repeats a handful of links). */
const checked = new Map<string, boolean>();

/** Whether the link's channel keys pass `channelPageQuery` (remembered per set of values). */
function wellFormed(values: Record<string, string | undefined>): boolean {
  const key = `${values.adChannelCode}\u0000${values.source}\u0000${values.apiChannelCode}\u0000${values.adRouteCode}`;
  let ok = checked.get(key);
  if (ok === undefined) {
    ok = channelPageQuery.safeParse(values).success;
    if (checked.size >= 1000) checked.clear();
    checked.set(key, ok);
  }
  return ok;
}

/** What a page address names before any lookup: its route code and the channel code it carries. */
export interface PageLink {
  /** The route code (trimmed), if the link carries one. */
  routeCode: string | undefined;
  /** The first non-blank of adChannelCode, source, apiChannelCode (pickChannelCode). */
  code: string | undefined;
}

/**
 * What a page address names (no code at all: the default page), or null when the page is not to be
 * rendered whatever the codes resolve to: a markup key in the link or malformed channel keys (pure,
 * synchronous).
 */
export function pageLinkOf(query: URLSearchParams, markupKeys: readonly string[]): PageLink | null {
  if (markupKeys.some((key) => query.has(key))) return null;
  const values = {
    adChannelCode: query.get('adChannelCode') ?? undefined,
    source: query.get('source') ?? undefined,
    apiChannelCode: query.get('apiChannelCode') ?? undefined,
    adRouteCode: query.get(ROUTE_CODE_QUERY_KEY) ?? undefined,
  };
  // The app shows what it makes of a malformed link.
  if (!wellFormed(values)) return null;
  const routeCode = values.adRouteCode?.trim() || undefined;
  const code = pickChannelCode(query);
  return { routeCode, code };
}

/**
 * The channel a page address names, or null when the page is not to be rendered for a channel (pure:
 * `exchange` answers a route code, null when it is unknown or disabled).
 */
export async function pageChannelOf(
  query: URLSearchParams,
  markupKeys: readonly string[],
  exchange: RouteExchange,
): Promise<PageChannel | null> {
  const link = pageLinkOf(query, markupKeys);
  return link ? channelOfLink(link, exchange) : null;
}

/** Answers a route code: its channel and plan target URL, null when it is unknown or disabled. */
type RouteExchange = (
  routeCode: string,
) => Promise<{ adChannelCode: string; planTargetUrl: string | null } | null>;

/** The channel a link names (`pageLinkOf`), its route code exchanged. */
async function channelOfLink(
  { routeCode, code }: PageLink,
  exchange: RouteExchange,
): Promise<PageChannel | null> {
  if (routeCode) {
    const route = await exchange(routeCode);
    // A route code that sends the visitor elsewhere: the app redirects (no landing to show).
    if (route?.planTargetUrl) return null;
    // One that resolves wins over a channel code in the same link; one that fails is ignored (as the app does).
    if (route) {
      return {
        code: route.adChannelCode,
        route: { adRouteCode: routeCode, adChannelCode: route.adChannelCode, planTargetUrl: null },
      };
    }
  }
  // A route code that failed and no channel code: the app decides (it may fall back to a kept channel).
  if (routeCode && !code) return null;
  // No code at all: the default configuration's page (boot.js leaves it to the app for a returning
  // visitor whose kept channel is another).
  return { code: code ?? '', route: null };
}

/** The page address of a request: the path without trailing slashes (`/` for the root) and the query. */
export function pageAddressOf(url: string): { path: string; search: string } {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  return { path: path.replace(/\/+$/, '') || '/', search: at < 0 ? '' : url.slice(at + 1) };
}

/** A page, and whether a shared cache may keep it for other visitors (see `ChannelPages.page`). */
export interface ServedChannelPage {
  page: ChannelPage;
  /**
   * The key a shared cache in front (nginx, ADR 062) must have used for this request to keep the page for
   * others (`sharedPageKey`); null when the page is not to be kept for other addresses (an A/B channel's page
   * depends on the visitor; a link whose codes name more than the page shows).
   */
  sharedKey: string | null;
}

/**
 * What selects a shared page, as nginx's micro-cache names it (deploy/nginx.conf, its `proxy_cache_key` of the pages): the path
 * without trailing slashes, the route code and the picked channel code, each percent-encoded (the link's own
 * spelling of a plain code). nginx keeps the page only when its own key, read from the raw query, is this very
 * string: any link nginx reads otherwise than the server (an encoded key name, a blank before a code)
 * is then answered by an instance each time, never stored under a key another link's page would be read from.
 */
export function sharedPageKey(path: string, link: PageLink): string {
  return `${path}|${encodeURIComponent(link.routeCode ?? '')}|${encodeURIComponent(link.code ?? '')}`;
}

/** Route-code exchanges kept that resolved (codes operators made) and that did not (anyone's). */
const MAX_RESOLVED_EXCHANGES = 10_000;
const MAX_UNRESOLVED_EXCHANGES = 1_000;

/**
 * A route code's exchange as kept (`value` null: unknown or disabled): until `expiresAt`, and only while no
 * channel was invalidated since (`invalidations`: the channel service's count when it was read). The console
 * invalidates a route code's channel when it adds, edits or deletes the code, so the next page shows it.
 */
interface Exchange {
  value: InlinedRoute | null;
  expiresAt: number;
  invalidations: number;
}

/**
 * Whether other links with this link's codes get this very page: only a page the same for everybody (not an
 * A/B arm), and only where the codes name no more than the page shows — a route code that resolved (a failed
 * one would make every made-up code a key) and a channel code, if the link has one besides, that is the page's.
 */
function shareable(link: PageLink, named: PageChannel, answer: H5Answer): boolean {
  if (answer.split) return false;
  // A route code that failed leaves the page to the link's channel code.
  if (link.routeCode !== undefined && named.route === null) return false;
  return link.code === undefined || link.code === named.code;
}

export class ChannelPages {
  /**
   * Pages by configuration (its JSON: the same string object while the configuration is cached, so
   * the lookup does not hash it again), then by build, address and route exchange.
   */
  private readonly pages = new Map<string, Map<string, Promise<ChannelPage | null>>>();
  private count = 0;
  /**
   * Route codes' exchanges kept, those that resolved apart from those that did not: any stranger can make up
   * codes that do not resolve, and a flood of them evicts only its own kind (each map drops its oldest entry
   * when full), never the codes operators made, which stay kept until they expire or a channel changes.
   */
  private readonly resolved = new Map<string, Exchange>();
  private readonly unresolved = new Map<string, Exchange>();
  /** The configuration as JSON, per configuration object (the channel cache hands out the same one). */
  private readonly configJson = new WeakMap<H5Config, string>();
  private readonly maxPages: number;
  private readonly now: () => number;

  constructor(private readonly d: ChannelPagesDeps) {
    this.maxPages = d.maxPages ?? 500;
    this.now = d.now ?? Date.now;
  }

  /** The addresses rendered. */
  handles(path: string): boolean {
    return this.d.renderer.paths.has(path);
  }

  /**
   * The page of `path` (without trailing slash) for the query `search` (without `?`), or null when it
   * is served as before. `ip` picks an A/B channel's arm as h5Config does for a visitor without a
   * device fingerprint (the page request carries none).
   */
  async page(path: string, search: string, ip: string): Promise<ServedChannelPage | null> {
    if (!this.handles(path)) return null;
    const link = pageLinkOf(new URLSearchParams(search), this.d.renderer.markupKeys);
    if (!link) return null;
    const named = await channelOfLink(link, async (routeCode) => (await this.exchange(routeCode)).value);
    if (!named) return null;
    const answer = await this.d.channels.h5Answer(named.code, `ip:${ip}`);
    const { config } = answer;
    // Unknown codes get the default configuration (adChannelCode ''): the app shows what it makes of them;
    // closed channels reload in the app.
    if (config.adChannelCode !== named.code || config.channelStatus === 0) return null;
    let json = this.configJson.get(config);
    if (json === undefined) {
      json = JSON.stringify(config);
      this.configJson.set(config, json);
    }
    const route = named.route;
    const version = this.d.renderer.version();
    const key = `${version}\u0000${path}\u0000${route ? route.adRouteCode : ''}`;
    let forConfig = this.pages.get(json);
    if (forConfig) {
      // Most recently used last.
      this.pages.delete(json);
      this.pages.set(json, forConfig);
    } else {
      if (this.count >= this.maxPages) this.dropOldest();
      forConfig = new Map();
      this.pages.set(json, forConfig);
    }
    let entry = forConfig.get(key);
    if (!entry) {
      const pages = forConfig;
      entry = this.render(path, config, route).catch((err: unknown) => {
        this.d.log.warn({ err, path, adChannelCode: config.adChannelCode }, 'channel page render failed');
        if (pages.delete(key)) this.count -= 1;
        return null;
      });
      forConfig.set(key, entry);
      this.count += 1;
    }
    const page = await entry;
    if (!page) return null;
    return { page, sharedKey: shareable(link, named, answer) ? sharedPageKey(path, link) : null };
  }

  /** Drops the pages of the configuration used longest ago. */
  private dropOldest(): void {
    const oldest = this.pages.keys().next();
    if (oldest.done) return;
    this.count -= this.pages.get(oldest.value)?.size ?? 0;
    this.pages.delete(oldest.value);
  }

  /** Pages held (for tests and metrics). */
  get size(): number {
    return this.count;
  }

  private async render(path: string, config: H5Config, route: InlinedRoute | null): Promise<ChannelPage> {
    // What h5Config would answer (its response schema drops what the app is not sent, e.g. the arms).
    const answer = h5ConfigData.parse(config) as H5Config;
    const raw = Buffer.from(this.d.renderer.render(path, answer, route), 'utf8');
    const [br, gz] = await Promise.all([
      brotli(raw, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: 11,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
      gzipAsync(raw, { level: 9 }),
    ]);
    const etag = `"${createHash('sha256').update(raw).digest('base64url').slice(0, 32)}"`;
    return { etag, raw, br, gzip: gz };
  }

  /** Whether `entry` is still the kept exchange of `routeCode`, unexpired and read since the last invalidation. */
  private fresh(routeCode: string, entry: Exchange): boolean {
    return (
      (entry.value ? this.resolved : this.unresolved).get(routeCode) === entry &&
      entry.expiresAt > this.now() &&
      entry.invalidations === this.d.channels.invalidations
    );
  }

  /**
   * A route code's exchange, kept as long as a channel's configuration and dropped by any channel's
   * invalidation (value null: unknown or disabled).
   */
  private async exchange(routeCode: string): Promise<Exchange> {
    const hit = this.resolved.get(routeCode) ?? this.unresolved.get(routeCode);
    if (hit && this.fresh(routeCode, hit)) return hit;
    // Read before the database: an invalidation during the read leaves the entry stale, not fresh.
    const invalidations = this.d.channels.invalidations;
    const now = this.now();
    let value: InlinedRoute | null;
    try {
      const answer = await this.d.channels.exchange(routeCode);
      value = { adRouteCode: routeCode, ...answer };
    } catch (err) {
      if (!(err instanceof AppError && err.kind === 'NOT_FOUND')) throw err;
      value = null;
    }
    const entry = { value, expiresAt: now + H5_CONFIG_TTL_SECONDS * 1000, invalidations };
    // A code that resolves now and did not before (or the other way round) leaves its other entry behind.
    this.resolved.delete(routeCode);
    this.unresolved.delete(routeCode);
    const kept = value ? this.resolved : this.unresolved;
    if (kept.size >= (value ? MAX_RESOLVED_EXCHANGES : MAX_UNRESOLVED_EXCHANGES)) {
      const oldest = kept.keys().next();
      if (!oldest.done) kept.delete(oldest.value);
    }
    kept.set(routeCode, entry);
    return entry;
  }
}
