/**
 * The face-verification loading page as a state machine (pure): what an answer (or a failure) of
 * POST /api/app/userInfo/faceVerify means, and what the page does next.
 *
 * - auditStatus 2 → passed: the credit flow continues (spec §4 alternative ordering).
 * - auditStatus 1 → failed: '认证失败' for 2 s (spec §8), back to identity verification, where the
 *   reasons are shown.
 * - 503 (the check could not run; nothing was recorded), a timeout or no network → "retry" with the
 *   same photo.
 * - 429 (too many checks), 404 (the photo is gone) or another refusal → the photo cannot be checked:
 *   the message, and back to take another.
 */
import { FaceStatus } from '@lm/shared/credit-info';
import { LOGOUT_CODES } from '@lm/shared/errors';
import type { FaceVerifyData } from '@lm/shared/schemas/credit';

export const FACE_FAILED = FaceStatus.FAILED;
export const RETRY_DEFAULT_MSG = '人脸核验服务繁忙，请稍后重试';
export const STUCK_DEFAULT_MSG = '照片无法核验，请重新拍摄';
/** Shown on return when the server gave no reason. */
export const FAILED_DEFAULT_REASON = '人脸核验未通过，请重新拍摄';

export type FaceOutcome =
  | { kind: 'passed'; note: string }
  | { kind: 'failed'; reasons: string[]; note: string }
  | { kind: 'retry'; message: string }
  | { kind: 'stuck'; message: string }
  /** The request was dropped (page left) or the session ended (the API client logs out): nothing to do. */
  | { kind: 'ignored' };

/** The 200 answer. Anything but a clear 2 is not a pass. */
export function outcomeOfAnswer(data: Partial<FaceVerifyData> | null | undefined): FaceOutcome {
  if (data?.auditStatus === FaceStatus.PASSED && data.passed !== false) {
    return { kind: 'passed', note: data.note ?? '' };
  }
  const reasons = (data?.reasons ?? []).filter((r) => typeof r === 'string' && r);
  return {
    kind: 'failed',
    reasons: reasons.length ? reasons : [FAILED_DEFAULT_REASON],
    note: data?.note ?? '',
  };
}

/** The shape of the API client's ApiError that matters here. */
export interface ErrorLike {
  name?: string;
  code?: number;
  msg?: string;
}

/** A rejected call. */
export function outcomeOfError(error: unknown): FaceOutcome {
  const e = (error ?? {}) as ErrorLike;
  if (e.name === 'CANCELED') return { kind: 'ignored' };
  if (typeof e.code === 'number' && LOGOUT_CODES.includes(e.code)) return { kind: 'ignored' };
  if (e.name === 'TIMEOUT_ERROR' || e.name === 'NETWORK_ERROR') {
    return { kind: 'retry', message: e.msg || RETRY_DEFAULT_MSG };
  }
  if (typeof e.code === 'number' && e.code >= 500 && e.code <= 599) {
    return { kind: 'retry', message: e.msg || RETRY_DEFAULT_MSG };
  }
  return { kind: 'stuck', message: e.msg || STUCK_DEFAULT_MSG };
}

export type LoadingState =
  /** The check of the uploaded selfie is running. */
  | { phase: 'verifying' }
  /** Passed: the next step of the credit flow is being decided. */
  | { phase: 'passed'; note: string }
  /** Failed: the toast shows, then back to identity verification. */
  | { phase: 'failed'; reasons: string[] }
  /** The check could not run: the same photo can be sent again. */
  | { phase: 'retry'; message: string }
  /** This photo cannot be checked: take another. */
  | { phase: 'stuck'; message: string }
  /** No selfie waiting (a reload after the decision, or the login decision sent the person here): the flow decides from the stored face status. */
  | { phase: 'deciding' };

export type LoadingEvent = { type: 'outcome'; outcome: FaceOutcome } | { type: 'retry' };

export function initialLoadingState(hasPendingSelfie: boolean): LoadingState {
  return hasPendingSelfie ? { phase: 'verifying' } : { phase: 'deciding' };
}

export function loadingReducer(state: LoadingState, event: LoadingEvent): LoadingState {
  if (event.type === 'retry') return state.phase === 'retry' ? { phase: 'verifying' } : state;
  // Only the running check has an answer to take.
  if (state.phase !== 'verifying') return state;
  const o = event.outcome;
  switch (o.kind) {
    case 'passed':
      return { phase: 'passed', note: o.note };
    case 'failed':
      return { phase: 'failed', reasons: o.reasons };
    case 'retry':
      return { phase: 'retry', message: o.message };
    case 'stuck':
      return { phase: 'stuck', message: o.message };
    case 'ignored':
      return state;
  }
}

/** What to do with the stored selfie and the stored failure after an outcome. */
export interface HandoffChange {
  /** Forget the selfie waiting for its check (a decision was recorded, or it cannot be checked). */
  clearPending: boolean;
  /** Reasons to show on the identity page; [] clears them; null leaves them. */
  failure: string[] | null;
}

export function handoffAfter(outcome: FaceOutcome): HandoffChange {
  switch (outcome.kind) {
    case 'passed':
      return { clearPending: true, failure: [] };
    case 'failed':
      return { clearPending: true, failure: outcome.reasons };
    case 'stuck':
      return { clearPending: true, failure: [outcome.message] };
    default:
      return { clearPending: false, failure: null };
  }
}
