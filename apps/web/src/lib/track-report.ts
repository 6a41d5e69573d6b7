/**
 * Ad-platform callback parameters (spec §7 `track_report`). The channel's h5Config names the platform
 * and the query parameters it appends to the landing URL (e.g. ocean engine `clickid`, `callback`);
 * they are captured once from the landing URL, kept per channel, and sent with every API call.
 */
import { STORAGE_KEYS } from '@/config/constants';
import { type KeyValueStore, readJson, storage, writeJson } from './storage';

export type TrackReport = { platform: string } & Record<string, string>;
type TrackReportMap = Record<string, TrackReport>;

/** Longest value kept per parameter (callback URLs are a few hundred characters). */
export const TRACK_VALUE_MAX = 1024;

/** The callback parameters of `config` present in `query`, or null when none is there. */
export function captureTrackReport(
  config: { platform: string; params: string[] } | null | undefined,
  query: URLSearchParams,
): TrackReport | null {
  if (!config?.platform || config.params.length === 0) return null;
  const report: TrackReport = { platform: config.platform };
  let found = false;
  for (const name of config.params) {
    if (name === 'platform') continue;
    const value = query.get(name)?.trim();
    if (value) {
      report[name] = value.slice(0, TRACK_VALUE_MAX);
      found = true;
    }
  }
  return found ? report : null;
}

export function saveTrackReport(
  channelCode: string,
  report: TrackReport,
  store: KeyValueStore = storage,
): void {
  const map = readJson<TrackReportMap>(store, STORAGE_KEYS.trackReport) ?? {};
  map[channelCode] = report;
  writeJson(store, STORAGE_KEYS.trackReport, map);
}

export function getTrackReport(channelCode: string, store: KeyValueStore = storage): TrackReport | null {
  if (!channelCode) return null;
  const map = readJson<TrackReportMap>(store, STORAGE_KEYS.trackReport);
  const report = map?.[channelCode];
  return report && typeof report === 'object' && typeof report.platform === 'string' ? report : null;
}

/**
 * JSON whose non-ASCII characters are \u-escaped: header values must be ISO-8859-1 or fetch throws,
 * and a callback parameter may carry Chinese text.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
