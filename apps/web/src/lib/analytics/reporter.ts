/** Funnel reporting wired to the browser (see report.ts for the rules). */
import type { FunnelStep } from '@lm/shared/channel';
import { api } from '@/lib/api-client';
import { sessionStore, storage } from '@/lib/storage';
import { whenChannelReady } from '../channel/bootstrap';
import { useChannelStore } from '../channel/store';
import { fingerprintWithin } from './fingerprint';
import { authorizationPageSteps, type ReportDeps, reportChannelClickWith, reportStepWith } from './report';

/** How long a report waits for the channel before going without it. */
const CHANNEL_WAIT_MS = 5000;
/** How long a report waits for the fingerprint (started on interaction or a few seconds after load). */
const FINGERPRINT_WAIT_MS = 8000;

const browserDeps: ReportDeps = {
  session: sessionStore,
  local: storage,
  now: () => Date.now(),
  random: Math.random,
  async context() {
    const [, fingerprint] = await Promise.all([
      whenChannelReady(CHANNEL_WAIT_MS),
      fingerprintWithin(FINGERPRINT_WAIT_MS),
    ]);
    const { adChannelCode, config } = useChannelStore.getState();
    return { adChannelCode, skin: config.skin, fingerprint };
  },
  sendEvent: (body) =>
    api.post('/api/report/event', { ...body }, { silent: true, cancelPrevious: false, keepalive: true }),
  sendClick: (params) =>
    api.get('/api/reportAdChannelClick', { params, silent: true, skipAuth: true, cancelPrevious: false }),
};

/** Steps are sent one after another, so the server receives them in the order they happened. */
let queue: Promise<unknown> = Promise.resolve();

/** Reports a funnel step (once per session). Fire and forget: `void reportStep('login')`. */
export function reportStep(step: FunnelStep): Promise<boolean> {
  // The console's live preview of a channel draft is not a visit.
  if (useChannelStore.getState().preview) return Promise.resolve(false);
  const sent = queue.then(() => reportStepWith(browserDeps, step));
  queue = sent.catch(() => false);
  return sent;
}

/** An authorisation page opened: its steps (report.ts `authorizationPageSteps`). */
export function reportAuthorizationPage(secondMatch: boolean): void {
  for (const step of authorizationPageSteps(browserDeps.session, secondMatch)) void reportStep(step);
}

/** The daily channel click (once per day per channel). */
export function reportChannelClick(): Promise<boolean> {
  if (useChannelStore.getState().preview) return Promise.resolve(false);
  return reportChannelClickWith(browserDeps).catch(() => false);
}
