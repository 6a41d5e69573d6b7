/**
 * A code request that may be answered 1008 CHALLENGE_REQUIRED (ADR 055): the phone or the address is under
 * pressure and this device is not known. The challenge in `data.challenge` is solved (the solver is loaded only
 * now) and the request repeated with `altcha`; a second 1008 (e.g. the solution expired) is solved once more.
 */
import { ErrorCode } from '../errors.ts';
import { ApiError } from './api-client.ts';

/** The envelope codes a send-code call leaves to `withChallenge` (pass as the request's `quiet`). */
export const CHALLENGE_QUIET: readonly number[] = [ErrorCode.CHALLENGE_REQUIRED];

export interface ChallengeHooks {
  /** Solving starts (true) or ends (false): show "正在进行安全验证…". */
  onSolving?(solving: boolean): void;
  /** Shows a message the quiet call did not (a last 1008, or a solver failure). */
  showError(msg: string): void;
  /** The solver; `altcha-solve` loaded on demand unless given (tests). */
  solve?(challenge: unknown): Promise<string>;
}

const isChallenge = (e: unknown): e is ApiError =>
  e instanceof ApiError && e.code === ErrorCode.CHALLENGE_REQUIRED;

export async function withChallenge<T>(
  send: (altcha?: string) => Promise<T>,
  hooks: ChallengeHooks,
): Promise<T> {
  let last: ApiError;
  try {
    return await send();
  } catch (error) {
    if (!isChallenge(error)) throw error;
    last = error;
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const challenge = (last.data as { challenge?: unknown } | null)?.challenge;
    if (!challenge) break;
    let altcha: string;
    hooks.onSolving?.(true);
    try {
      const solve = hooks.solve ?? (await import('./altcha-solve.ts')).solveAltcha;
      altcha = await solve(challenge);
    } catch (error) {
      const msg = error instanceof Error && error.message ? error.message : '安全验证失败，请重试';
      hooks.showError(msg);
      throw new ApiError(ErrorCode.CHALLENGE_REQUIRED, msg);
    } finally {
      hooks.onSolving?.(false);
    }
    try {
      return await send(altcha);
    } catch (error) {
      if (!isChallenge(error)) throw error;
      last = error;
    }
  }
  hooks.showError(last.msg);
  throw last;
}
