/**
 * Route-code cache (spec §3 `ROUTE_CODE_MAP`): an ad link's `adRouteCode` is exchanged for a channel
 * code once per calendar day (Asia/Shanghai) and device.
 */

import { shanghaiDay } from '@lm/shared/shanghai-day';
import { STORAGE_KEYS } from '@/config/constants';
import { type KeyValueStore, readJson, writeJson } from '@/lib/storage';

export interface RouteCodeEntry {
  channelCode: string;
  /** The Shanghai calendar day the exchange happened on, 'YYYY-MM-DD'; valid on that day only. */
  expire: string;
  planTargetUrl: string | null;
}

export type RouteCodeMap = Record<string, RouteCodeEntry>;

/** An entry is valid on the Shanghai calendar day it was stored (spec §9). */
export function isRouteCodeEntryValid(entry: RouteCodeEntry | null | undefined, now: number): boolean {
  return Boolean(entry?.channelCode) && entry?.expire === shanghaiDay(now);
}

export function readRouteCodeMap(store: KeyValueStore): RouteCodeMap {
  const map = readJson<RouteCodeMap>(store, STORAGE_KEYS.routeCodeMap);
  return map && typeof map === 'object' && !Array.isArray(map) ? map : {};
}

/** The cached exchange of `routeCode`, when it is still valid today. */
export function cachedRouteCode(store: KeyValueStore, routeCode: string, now: number): RouteCodeEntry | null {
  const entry = readRouteCodeMap(store)[routeCode];
  return isRouteCodeEntryValid(entry, now) ? (entry ?? null) : null;
}

/** Stores an exchange for today; entries of earlier days are dropped on the way. */
export function cacheRouteCode(
  store: KeyValueStore,
  routeCode: string,
  value: { channelCode: string; planTargetUrl: string | null },
  now: number,
): RouteCodeEntry {
  const entry: RouteCodeEntry = { ...value, expire: shanghaiDay(now) };
  const map: RouteCodeMap = {};
  for (const [code, e] of Object.entries(readRouteCodeMap(store))) {
    if (isRouteCodeEntryValid(e, now)) map[code] = e;
  }
  map[routeCode] = entry;
  writeJson(store, STORAGE_KEYS.routeCodeMap, map);
  return entry;
}
