import type { AuthBody } from '@lm/shared/schemas/matching';
import { api } from '@/lib/api-client';
import { type AuthAnswer, parseAuthAnswer } from '../consent-result';

/** The consent as the authorise list has it (`matchId` null or absent: the person's latest match). */
export type AuthorizeProductsInput = Omit<AuthBody, 'matchId' | 'productIds'> & {
  productIds: string[];
  matchId?: number | null;
};

/** PUT /api/user/info/auth — consent lender by lender, for the offers of match `matchId`. */
export async function authorizeProducts(input: AuthorizeProductsInput): Promise<AuthAnswer> {
  const { matchId, ...rest } = input;
  const body: AuthBody = matchId ? { ...rest, matchId } : rest;
  return parseAuthAnswer(await api.put<unknown, AuthBody>('/api/user/info/auth', body));
}
