/**
 * The calls of the post-login decision (api/*), all silent: a failure (or a 404 while the form and
 * credit endpoints are not built yet) is "no data" for the decision, never a toast.
 */
import { MATCH_SESSION_KEYS } from '@/config/constants';
import { sessionStore } from '@/lib/storage';
import { fetchChannelDetail } from '../channel/api/fetch-channel-detail';
import { reportDevice } from '../location/api/report-device';
import { locateVisitor } from '../location/locate-visitor';
import { fetchApplyStatus } from './api/fetch-apply-status';
import { fetchCreditInfo } from './api/fetch-credit-info';
import { fetchFormConfig } from './api/fetch-form-config';
import { rematchProducts } from './api/rematch-products';
import type { PostLoginDeps } from './run-post-login';

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
