/**
 * The calls of the post-login decision, all silent: a failure (or a 404 while the form and credit
 * endpoints are not built yet) is "no data" for the decision, never a toast.
 */

import type { CreditInfo } from '@lm/shared/credit-info';
import { MATCH_SESSION_KEYS } from '@/config/constants';
import { ApiError, api } from '@/lib/api-client';
import { sessionStore } from '@/lib/storage';
import { fetchChannelDetail } from '../channel/api';
import { locateVisitor, reportDevice } from '../location/api';
import type { ApplyStatusFacts, FormConfig, MatchResult } from './decide';
import type { PostLoginDeps } from './run-post-login';

/**
 * Re-match type (spec §3 "Re-match type: 0 old user, 1 big union, 2 city, 3 second match"), sent as
 * directMatchType of POST /api/user/info/direct/match.
 */
export const DirectMatchType = { OLD_USER: 0, BIG_UNION: 1, CITY: 2, SECOND_MATCH: 3 } as const;

/** GET /api/app/userInfo/userFormConfig?adChannelCode= */
export function fetchFormConfig(adChannelCode: string): Promise<Partial<FormConfig>> {
  return api.get<Partial<FormConfig>>('/api/app/userInfo/userFormConfig', {
    params: { adChannelCode },
    silent: true,
  });
}

/** GET /api/app/userInfo/baseDetail */
export function fetchCreditInfo(): Promise<CreditInfo> {
  return api.get<CreditInfo>('/api/app/userInfo/baseDetail', { silent: true });
}

/** GET /api/user/info/detail (errors silent): the envelope code with the data. */
export async function fetchApplyStatus(): Promise<ApplyStatusFacts> {
  try {
    const data = await api.get<ApplyStatusFacts['data']>('/api/user/info/detail', { silent: true });
    return { code: 200, data: data ?? null };
  } catch (error) {
    return { code: error instanceof ApiError ? error.code : 0, data: null };
  }
}

/** POST /api/user/info/direct/match: re-match an old user's products. */
export function rematchProducts(
  adChannelCode: string,
  directMatchType: number = DirectMatchType.OLD_USER,
): Promise<MatchResult | null> {
  return api.post<MatchResult | null>(
    '/api/user/info/direct/match',
    { adChannelCode, directMatchType },
    { silent: true },
  );
}

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
