/**
 * The calls of the post-login decision (features/flow/api/*, the channel's detail, the visitor's
 * location), all silent: a failure (or a 404 while the form and credit endpoints are not built yet)
 * is "no data" for the decision, never a toast. App wiring: it combines the flow, channel and location.
 */
import { MATCH_SESSION_KEYS } from '@/config/constants';
import { fetchApplyStatus } from '@/features/flow/api/fetch-apply-status';
import { fetchCreditInfo } from '@/features/flow/api/fetch-credit-info';
import { fetchFormConfig } from '@/features/flow/api/fetch-form-config';
import { rematchProducts } from '@/features/flow/api/rematch-products';
import type { PostLoginDeps } from '@/features/flow/run-post-login';
import { reportDevice } from '@/features/location/api/report-device';
import { locateVisitor } from '@/features/location/locate-visitor';
import { fetchChannelDetail } from '@/lib/channel/api/fetch-channel-detail';
import { sessionStore } from '@/lib/storage';

export const postLoginDeps: PostLoginDeps = {
  channelDetail: async (code) => (code ? await fetchChannelDetail(code) : null),
  location: (code) => locateVisitor(code),
  formConfig: fetchFormConfig,
  creditInfo: fetchCreditInfo,
  applyStatus: fetchApplyStatus,
  // The answer is kept as productMatchInfo (matchId included): the authorisation consents to that run,
  // and the result page reads an "already registered" answer from there (never from the link).
  rematch: async (code) => {
    const result = await rematchProducts(code);
    if (result) sessionStore.set(MATCH_SESSION_KEYS.productMatchInfo, JSON.stringify(result));
    return result;
  },
  reportDevice,
  log: (message, detail) => {
    if (detail === undefined) console.info(`[flow] ${message}`);
    else console.warn(`[flow] ${message}:`, detail instanceof Error ? detail.message : detail);
  },
};
