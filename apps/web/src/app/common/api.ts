/**
 * Calls of the application, matching and consent pages (spec §7; issue 4). Shapes: applicationSaveBody,
 * matchResultSchema, authBody, authData and protocolData of @lm/shared (types only here: the browser
 * bundle does not carry zod).
 */
import type { ApplicationDraft } from '@lm/shared/schemas/application';
import type { MatchResultData } from '@lm/shared/schemas/matching';
import { api } from '@/lib/api-client';
import { type AuthAnswer, parseAuthAnswer } from './consent-result';

/**
 * POST /api/user/info/save — the whole form draft (`autoForm: true` when the answers came from the
 * automatic form and the person confirmed them); answers the match result.
 */
export function saveUserInfo(draft: Record<string, unknown>): Promise<MatchResultData | null> {
  return api.post<MatchResultData | null>('/api/user/info/save', draft);
}

/**
 * GET /api/user/info/match/{matchKey} — a match of the signed-in person by its key (issue 16.8: links
 * carry the key, never the result); rejects (404) for anyone else's.
 */
export function fetchMatch(matchKey: string, signal?: AbortSignal): Promise<MatchResultData> {
  return api.get<MatchResultData>(`/api/user/info/match/${encodeURIComponent(matchKey)}`, {
    silent: true,
    ...(signal ? { signal } : {}),
  });
}

/**
 * POST /api/user/info/tempSave — the answers typed so far, merged into the stored draft (issue 16.3).
 * Silent: a failed autosave (offline) is retried with the next change, the device keeps a copy
 * meanwhile; an expired session still logs out (and the login comes back to the form).
 */
export function tempSaveDraft(
  patch: Record<string, unknown>,
  keepalive = false,
): Promise<{ savedAt: string }> {
  return api.post<{ savedAt: string }>('/api/user/info/tempSave', patch, { silent: true, keepalive });
}

/** The stored draft as GET /api/user/info/form/show answers it: realName and identity masked. */
export type ShownDraft = ApplicationDraft;

/** GET /api/user/info/form/show — the stored draft (realName and identity masked), or {}. */
export function fetchShownDraft(signal?: AbortSignal): Promise<ShownDraft> {
  return api.get<ShownDraft>('/api/user/info/form/show', { silent: true, ...(signal ? { signal } : {}) });
}

/** POST /api/user/info/identityNameVerify answer. */
export interface IdentityNameVerifyData {
  /** null: nobody compared the name with the number (local provider: format only, or the service failed). */
  verified: boolean | null;
  method: 'format-only' | 'provider';
  /** What was (and was not) checked, in Chinese. */
  note: string;
  age: number;
  /** 1 male, 2 female (from the number). */
  gender: number;
}

/** POST /api/user/info/identityNameVerify — name + national ID. */
export function verifyIdentityName(input: {
  realName: string;
  identity: string;
}): Promise<IdentityNameVerifyData> {
  return api.post<IdentityNameVerifyData>('/api/user/info/identityNameVerify', input);
}

/** PUT /api/user/info/auth — consent lender by lender, for the offers of match `matchId`. */
export async function authorizeProducts(input: {
  productIds: string[];
  adChannelCode?: string;
  matchId?: number | null;
}): Promise<AuthAnswer> {
  const { matchId, ...rest } = input;
  const body = matchId ? { ...rest, matchId } : rest;
  return parseAuthAnswer(await api.put<unknown>('/api/user/info/auth', body));
}

/** protocolData of @lm/shared: an agreement rendered for one lender (the text a consent records). */
export interface LenderAgreement {
  id: string;
  title: string;
  version: string;
  content: string;
  /** SHA-256 (hex) of `content`. */
  textHash: string;
  consentedAt: string | null;
}

/** GET /api/user/info/protocol2/getContent?productId — the text the person consented to (latest consent). */
export function fetchConsentedAgreement(productId: string): Promise<LenderAgreement> {
  return api.get<LenderAgreement>('/api/user/info/protocol2/getContent', {
    params: { productId },
    silent: true,
  });
}

/** GET /api/user/info/protocol/{id}?productId — agreement `id` rendered for that product's lender. */
export function fetchLenderAgreement(id: string, productId: string): Promise<LenderAgreement> {
  return api.get<LenderAgreement>(`/api/user/info/protocol/${encodeURIComponent(id)}`, {
    params: { productId },
    silent: true,
  });
}

/** GET /api/common/upload/policy — signed upload policy for a folder. */
export function getUploadPolicy(params: { image: string; isPrivate: boolean }): Promise<unknown> {
  return api.get<unknown>('/api/common/upload/policy', { params });
}

export interface StaffLoginData {
  token: string;
}

/** POST /api/crm/admin/login — staff phone + password. */
export function staffLogin(input: { phone: string; password: string }): Promise<StaffLoginData> {
  return api.post<StaffLoginData>('/api/crm/admin/login', input, { skipAuth: true });
}
