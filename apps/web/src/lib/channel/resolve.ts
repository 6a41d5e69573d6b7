/**
 * Channel resolution at start (spec §2, §3, §4):
 *
 * 1. `adChannelCode` | `source` | `apiChannelCode` query (first non-blank wins) → localStorage
 *    `ad_channel_code`; without one the stored code stays.
 * 2. `adRouteCode` query → `ROUTE_CODE_MAP` entry of today (Asia/Shanghai), else
 *    `GET /api/adChannel/exchange/adChannelCode` (cached for the day). A route code that resolves wins
 *    over a channel code in the same link; one that fails is logged and ignored.
 * 3. `GET /api/adChannel/h5Config` (silent, no token) → channel store; DEFAULT_H5_CONFIG on failure.
 *    A page the server rendered for the channel carries its configuration (and the route code's
 *    exchange): then neither call is made (issue 17.1, inlined.ts).
 * 4. The ad platform's callback parameters (h5Config `trackReport.params`) are captured from the
 *    landing URL for the channel (the api-client sends them as `track_report`).
 * 5. channelStatus 0 → reload at the original address, once per channel and browser session
 *    (sessionStorage guard): a closed channel cannot loop.
 * 6. The route code's planTargetUrl, when there is one and it is this site or one of the channel's
 *    allowedHosts: redirect (same-site paths through the router). Other targets are logged and ignored.
 *
 * Steps 3–6 wait for h5Config because the redirect check needs the channel's allowedHosts.
 *
 * Console live preview (issue 7): with `previewToken` in the address the page shows the unsaved draft
 * the token carries (h5Config?previewToken=…) and does nothing else — no stored channel code, no route
 * code, no redirect or reload, no analytics (outcome 'preview').
 */
import { FLOW_ROUTES, type H5Config } from '@lm/shared/channel';
import { SESSION_KEYS } from '@/config/constants';
import { getStoredChannelCode, pickChannelCode, setStoredChannelCode } from '@/lib/channel/code';
import { type KeyValueStore, readJson, writeJson } from '@/lib/storage';
import { captureTrackReport, saveTrackReport } from '@/lib/track-report';
import type { RouteCodeExchange } from './api/exchange-route-code';
import type { InlinedChannel } from './inlined';
import { resolveRedirect } from './redirect';
import { cachedRouteCode, cacheRouteCode } from './route-code';
import { type ChannelStatus, DEFAULT_H5_CONFIG } from './store';

export const ROUTE_CODE_QUERY_KEY = 'adRouteCode';
export const PREVIEW_TOKEN_QUERY_KEY = 'previewToken';

export interface BootstrapDeps {
  /** The address the visitor arrived at. */
  href: string;
  local: KeyValueStore;
  session: KeyValueStore;
  now(): number;
  exchangeRouteCode(adRouteCode: string): Promise<RouteCodeExchange>;
  fetchH5Config(adChannelCode: string, previewToken?: string): Promise<H5Config>;
  /** Same-site redirect without reloading (path + search + hash). */
  navigate(path: string): void;
  /** Full-page redirect. */
  replaceLocation(url: string): void;
  /** Reload at `href` (the original address). */
  reload(href: string): void;
  log(message: string, detail?: unknown): void;
  setChannel(code: string): void;
  setConfig(config: H5Config): void;
  setStatus(status: ChannelStatus): void;
  setPreview?(preview: boolean): void;
  /** What a server-rendered page carries: used instead of the calls for the same codes. */
  inlined?: InlinedChannel | null;
}

export type BootstrapOutcome = 'ready' | 'redirected' | 'reloading' | 'preview';

export interface BootstrapResult {
  outcome: BootstrapOutcome;
  adChannelCode: string;
  config: H5Config;
  /** Whether the channel code came from the landing URL (query or route code). */
  fromLink: boolean;
}

/** h5Config answers from older servers (or proxies) may miss fields: fill them from the defaults. */
export function normalizeConfig(data: unknown, adChannelCode: string): H5Config {
  if (!data || typeof data !== 'object') return { ...DEFAULT_H5_CONFIG, adChannelCode };
  const given = data as Partial<H5Config>;
  const merged = { ...DEFAULT_H5_CONFIG, ...given };
  const list = <T>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : []);
  return {
    ...merged,
    flowRoutes: given.flowRoutes ?? FLOW_ROUTES[merged.flow] ?? FLOW_ROUTES.default,
    flags: list(merged.flags),
    excludeCityCodes: list(merged.excludeCityCodes),
    allowedHosts: list(merged.allowedHosts),
    footer: list(merged.footer),
    agreements: list(merged.agreements).length ? merged.agreements : DEFAULT_H5_CONFIG.agreements,
  };
}

/** Remembers that `code` was reloaded once this session; false when it already was. */
export function takeClosedChannelReload(session: KeyValueStore, code: string): boolean {
  const done = readJson<string[]>(session, SESSION_KEYS.closedChannelReloads);
  const list = Array.isArray(done) ? done : [];
  if (list.includes(code)) return false;
  writeJson(session, SESSION_KEYS.closedChannelReloads, [...list, code]);
  return true;
}

async function resolveRouteCode(
  deps: BootstrapDeps,
  routeCode: string,
): Promise<{ channelCode: string; planTargetUrl: string | null } | null> {
  const inlined = deps.inlined?.route;
  if (inlined?.adRouteCode === routeCode) {
    const exchange = { channelCode: inlined.adChannelCode, planTargetUrl: inlined.planTargetUrl };
    return cacheRouteCode(deps.local, routeCode, exchange, deps.now());
  }
  const cached = cachedRouteCode(deps.local, routeCode, deps.now());
  if (cached) return cached;
  try {
    const answer = await deps.exchangeRouteCode(routeCode);
    if (!answer?.adChannelCode) throw new Error('no adChannelCode in the answer');
    return cacheRouteCode(
      deps.local,
      routeCode,
      { channelCode: answer.adChannelCode, planTargetUrl: answer.planTargetUrl ?? null },
      deps.now(),
    );
  } catch (error) {
    deps.log(`route code ${routeCode} could not be exchanged`, error);
    return null;
  }
}

/** The console's preview: the draft's configuration, nothing stored, nothing reported. */
async function runPreview(deps: BootstrapDeps, token: string): Promise<BootstrapResult> {
  deps.setPreview?.(true);
  deps.setStatus('loading');
  let config: H5Config;
  try {
    config = normalizeConfig(await deps.fetchH5Config('', token), '');
    deps.setStatus('ready');
  } catch (error) {
    deps.log('preview configuration could not be loaded', error);
    config = { ...DEFAULT_H5_CONFIG };
    deps.setStatus('failed');
  }
  deps.setChannel(config.adChannelCode);
  deps.setConfig(config);
  return { outcome: 'preview', adChannelCode: config.adChannelCode, config, fromLink: false };
}

export async function runChannelBootstrap(deps: BootstrapDeps): Promise<BootstrapResult> {
  const url = new URL(deps.href);
  const query = url.searchParams;

  const previewToken = query.get(PREVIEW_TOKEN_QUERY_KEY)?.trim();
  if (previewToken) return runPreview(deps, previewToken);

  const fromQuery = pickChannelCode(query);
  if (fromQuery) setStoredChannelCode(fromQuery, deps.local);

  const routeCode = query.get(ROUTE_CODE_QUERY_KEY)?.trim();
  const route = routeCode ? await resolveRouteCode(deps, routeCode) : null;
  if (route) setStoredChannelCode(route.channelCode, deps.local);

  const code = route?.channelCode ?? fromQuery ?? getStoredChannelCode(deps.local) ?? '';
  const fromLink = Boolean(route || fromQuery);
  deps.setChannel(code);
  deps.setStatus('loading');

  let config: H5Config;
  try {
    const inlined = deps.inlined?.adChannelCode === code && code !== '' ? deps.inlined.config : null;
    config = normalizeConfig(inlined ?? (await deps.fetchH5Config(code)), code);
    deps.setConfig(config);
    deps.setStatus('ready');
  } catch (error) {
    deps.log('h5Config could not be loaded; using the default configuration', error);
    config = { ...DEFAULT_H5_CONFIG, adChannelCode: code };
    deps.setConfig(config);
    deps.setStatus('failed');
  }

  const report = captureTrackReport(config.trackReport, query);
  if (report && code) saveTrackReport(code, report, deps.local);

  if (config.channelStatus === 0) {
    if (takeClosedChannelReload(deps.session, code)) {
      deps.reload(deps.href);
      return { outcome: 'reloading', adChannelCode: code, config, fromLink };
    }
    deps.log(`channel ${code} is closed (channelStatus 0); already reloaded once this session`);
    return { outcome: 'ready', adChannelCode: code, config, fromLink };
  }

  if (route?.planTargetUrl) {
    const target = resolveRedirect(route.planTargetUrl, {
      origin: url.origin,
      allowedHosts: config.allowedHosts,
    });
    if (!target) {
      deps.log(`plan target ${route.planTargetUrl} is neither this site nor an allowed host; ignored`);
    } else if (target.kind === 'external') {
      deps.replaceLocation(target.url);
      return { outcome: 'redirected', adChannelCode: code, config, fromLink };
    } else {
      const targetQuery = new URL(target.path, url.origin).searchParams;
      if (targetQuery.has(ROUTE_CODE_QUERY_KEY)) {
        // Following it would exchange again and redirect again.
        deps.log(`plan target ${target.path} carries a route code; ignored`);
      } else if (target.path !== `${url.pathname}${url.search}${url.hash}`) {
        // A target naming another channel needs a fresh start so that channel is resolved.
        if (pickChannelCode(targetQuery)) deps.replaceLocation(target.path);
        else deps.navigate(target.path);
        return { outcome: 'redirected', adChannelCode: code, config, fromLink };
      }
    }
  }
  return { outcome: 'ready', adChannelCode: code, config, fromLink };
}
