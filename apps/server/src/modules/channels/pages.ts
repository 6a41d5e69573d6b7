/**
 * A channel's landing and login pages in its skin, in the first HTML (issue 17.1, ADR 022).
 *
 * `/`, `/download`, `/login`, `/getQuota` and `/h5` opened with a channel code (`adChannelCode`,
 * `source`, `apiChannelCode`) or a route code (`adRouteCode`) are answered with the page the app would
 * render for that channel — layout, colours, title, copy, footer — and the channel's h5Config inlined, so
 * the app starts without asking for it. Everything else keeps the pre-rendered default page (ADR 013):
 * no code, an unknown or closed channel, a route code that is unknown or sends the visitor elsewhere, the
 * console's preview, a link whose query changes the markup (a phone in it), or no render build.
 *
 * A page is rendered once per (address, skin, channel configuration, build) and kept in memory with its
 * brotli and gzip encodings. The configuration is part of the key: a console edit invalidates the
 * channel's configuration (ChannelService.invalidate, shared by every instance through Redis) and the
 * next request renders the new page. Pages are never stored per visitor: an A/B channel has one page
 * per arm.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { type H5Config, pickChannelCode, ROUTE_CODE_QUERY_KEY } from '@lm/shared/channel';
import { channelPageQuery, h5ConfigData } from '@lm/shared/schemas/channel';
import { AppError } from '../../lib/errors.ts';
import type { ChannelPageRenderer, InlinedRoute } from '../../lib/web-ssr.ts';
import { H5_CONFIG_TTL_SECONDS } from './cache.ts';
import type { ChannelService } from './service.ts';

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
  channels: Pick<ChannelService, 'h5Answer' | 'exchange'>;
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

/**
 * The channel a page address names, or null when the page is not to be rendered for a channel (pure:
 * `exchange` answers a route code, null when it is unknown or disabled).
 */
export async function pageChannelOf(
  query: URLSearchParams,
  markupKeys: readonly string[],
  exchange: (routeCode: string) => Promise<{ adChannelCode: string; planTargetUrl: string | null } | null>,
): Promise<PageChannel | null> {
  if (markupKeys.some((key) => query.has(key))) return null;
  const values = {
    adChannelCode: query.get('adChannelCode') ?? undefined,
    source: query.get('source') ?? undefined,
    apiChannelCode: query.get('apiChannelCode') ?? undefined,
    adRouteCode: query.get(ROUTE_CODE_QUERY_KEY) ?? undefined,
  };
  // The app shows what it makes of a malformed link.
  if (!wellFormed(values)) return null;
  const routeCode = values.adRouteCode?.trim();
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
  const code = pickChannelCode(query);
  return code ? { code, route: null } : null;
}

export class ChannelPages {
  /**
   * Pages by configuration (its JSON: the same string object while the configuration is cached, so
   * the lookup does not hash it again), then by build, address and route exchange.
   */
  private readonly pages = new Map<string, Map<string, Promise<ChannelPage | null>>>();
  private count = 0;
  private readonly exchanges = new Map<string, { value: InlinedRoute | null; expiresAt: number }>();
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
  async page(path: string, search: string, ip: string): Promise<ChannelPage | null> {
    if (!search || !this.handles(path)) return null;
    const named = await pageChannelOf(new URLSearchParams(search), this.d.renderer.markupKeys, (routeCode) =>
      this.exchange(routeCode),
    );
    if (!named) return null;
    const { config } = await this.d.channels.h5Answer(named.code, `ip:${ip}`);
    // Unknown codes get the default configuration (adChannelCode ''); closed channels reload in the app.
    if (config.adChannelCode !== named.code || config.channelStatus === 0) return null;
    let json = this.configJson.get(config);
    if (json === undefined) {
      json = JSON.stringify(config);
      this.configJson.set(config, json);
    }
    const route = named.route;
    const key = `${this.d.renderer.version()}\u0000${path}\u0000${route ? route.adRouteCode : ''}`;
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
    return entry;
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

  /** A route code's exchange, kept as long as a channel's configuration (null: unknown or disabled). */
  private async exchange(routeCode: string): Promise<InlinedRoute | null> {
    const now = this.now();
    const hit = this.exchanges.get(routeCode);
    if (hit && hit.expiresAt > now) return hit.value;
    let value: InlinedRoute | null;
    try {
      const answer = await this.d.channels.exchange(routeCode);
      value = { adRouteCode: routeCode, ...answer };
    } catch (err) {
      if (!(err instanceof AppError && err.kind === 'NOT_FOUND')) throw err;
      value = null;
    }
    if (this.exchanges.size >= 1000) this.exchanges.clear();
    this.exchanges.set(routeCode, { value, expiresAt: now + H5_CONFIG_TTL_SECONDS * 1000 });
    return value;
  }
}
