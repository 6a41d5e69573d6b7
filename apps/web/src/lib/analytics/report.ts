/**
 * Funnel reporting (spec §1): `POST /api/report/event` once per browser session and step
 * (sessionStorage guard; the server is idempotent per session and step too), and the daily channel
 * click `GET /api/reportAdChannelClick`. Never throws, never blocks the UI. Browser wiring: reporter.ts.
 */
import { ANALYTICS_SOURCE, type FunnelStep } from '@lm/shared/channel';
import { shanghaiDay } from '@lm/shared/shanghai-day';
import { SESSION_KEYS, STORAGE_KEYS } from '@/config/constants';
import { type KeyValueStore, readJson, writeJson } from '@/lib/storage';
import { getBehaviorCode } from './behavior-code';

export interface ReportEventBody {
  step: FunnelStep;
  sessionId: string;
  adChannelCode?: string;
  skin?: number;
  fingerprint?: string;
  behaviorCode: string;
  source: typeof ANALYTICS_SOURCE;
}

export interface ReportContext {
  adChannelCode: string;
  skin: number;
  fingerprint: string;
}

export interface ReportDeps {
  session: KeyValueStore;
  local: KeyValueStore;
  now(): number;
  random(): number;
  context(): Promise<ReportContext>;
  sendEvent(body: ReportEventBody): Promise<unknown>;
  sendClick(params: { adChannelCode: string; fingerprint: string; abTestType: number }): Promise<unknown>;
}

const SESSION_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The analytics session id: random, per browser session (sessionStorage). */
export function getAnalyticsSessionId(session: KeyValueStore, random: () => number = Math.random): string {
  const existing = session.get(SESSION_KEYS.analyticsSession);
  if (existing && /^[A-Za-z0-9_-]{8,64}$/.test(existing)) return existing;
  let id = '';
  for (let i = 0; i < 24; i++) id += SESSION_ID_ALPHABET[Math.floor(random() * SESSION_ID_ALPHABET.length)];
  session.set(SESSION_KEYS.analyticsSession, id);
  return id;
}

function reportedSteps(session: KeyValueStore): string[] {
  const list = readJson<string[]>(session, SESSION_KEYS.reportedSteps);
  return Array.isArray(list) ? list : [];
}

/** Marks `step` as reported in this session; false when it already was (once per session). */
export function claimStep(session: KeyValueStore, step: FunnelStep): boolean {
  const list = reportedSteps(session);
  if (list.includes(step)) return false;
  writeJson(session, SESSION_KEYS.reportedSteps, [...list, step]);
  return true;
}

/**
 * The steps an authorisation page reports when it opens (issue 44.14). The second match's page
 * (`/seconed-match-authorize`, spec §4) is 二次匹配授权; any other is 访问授权页, and also 二次授权
 * (spec §1's re-authorisation) once this session has shown the retention popup.
 */
export function authorizationPageSteps(session: KeyValueStore, secondMatch: boolean): FunnelStep[] {
  if (secondMatch) return ['second_match_authorization'];
  return reportedSteps(session).includes('retention_popup')
    ? ['visit_authorization', 're_authorization']
    : ['visit_authorization'];
}

/** Un-marks a step whose report failed, so that a later call may try again. */
export function releaseStep(session: KeyValueStore, step: FunnelStep): void {
  writeJson(
    session,
    SESSION_KEYS.reportedSteps,
    reportedSteps(session).filter((s) => s !== step),
  );
}

/** Reports `step` unless this session already did. Resolves true when it was sent. */
export async function reportStepWith(deps: ReportDeps, step: FunnelStep): Promise<boolean> {
  if (!claimStep(deps.session, step)) return false;
  try {
    const ctx = await deps.context();
    await deps.sendEvent({
      step,
      sessionId: getAnalyticsSessionId(deps.session, deps.random),
      ...(ctx.adChannelCode ? { adChannelCode: ctx.adChannelCode } : {}),
      skin: ctx.skin,
      ...(ctx.fingerprint ? { fingerprint: ctx.fingerprint } : {}),
      behaviorCode: getBehaviorCode(deps.local, deps.now()),
      source: ANALYTICS_SOURCE,
    });
    return true;
  } catch {
    releaseStep(deps.session, step);
    return false;
  }
}

/** Channel → Shanghai day of its last counted click. */
type ClickMap = Record<string, string>;

/** Reports the channel click once per Shanghai day and channel on this device. */
export async function reportChannelClickWith(deps: ReportDeps): Promise<boolean> {
  const ctx = await deps.context();
  if (!ctx.adChannelCode) return false;
  const today = shanghaiDay(deps.now());
  const map = readJson<ClickMap>(deps.local, STORAGE_KEYS.adClickReported) ?? {};
  if (map[ctx.adChannelCode] === today) return false;
  const save = (value: string | undefined) => {
    const next = readJson<ClickMap>(deps.local, STORAGE_KEYS.adClickReported) ?? {};
    // Keep today's entries only: older days no longer matter.
    const kept: ClickMap = Object.fromEntries(Object.entries(next).filter(([, day]) => day === today));
    if (value) kept[ctx.adChannelCode] = value;
    else delete kept[ctx.adChannelCode];
    writeJson(deps.local, STORAGE_KEYS.adClickReported, kept);
  };
  save(today);
  try {
    await deps.sendClick({
      adChannelCode: ctx.adChannelCode,
      fingerprint: ctx.fingerprint,
      abTestType: ctx.skin,
    });
    return true;
  } catch {
    save(undefined);
    return false;
  }
}
