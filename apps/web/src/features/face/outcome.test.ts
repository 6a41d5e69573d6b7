import { describe, expect, it } from 'vitest';
import {
  FAILED_DEFAULT_REASON,
  handoffAfter,
  initialLoadingState,
  type LoadingEvent,
  type LoadingState,
  loadingReducer,
  outcomeOfAnswer,
  outcomeOfError,
  RETRY_DEFAULT_MSG,
  STUCK_DEFAULT_MSG,
} from './outcome';

const NOTE = '本地核验仅检测照片中是否有清晰的人脸，未与身份证照片比对';

describe('outcomeOfAnswer', () => {
  it('auditStatus 2 is a pass, with the note saying what was checked', () => {
    expect(
      outcomeOfAnswer({
        auditStatus: 2,
        passed: true,
        identityVerified: null,
        method: 'local-detection',
        reasons: [],
        note: NOTE,
      }),
    ).toEqual({ kind: 'passed', note: NOTE });
  });

  it('auditStatus 1 is a failure with the server reasons', () => {
    expect(
      outcomeOfAnswer({
        auditStatus: 1,
        passed: false,
        reasons: ['未检测到人脸，请正对镜头重新拍摄'],
        note: NOTE,
      }),
    ).toEqual({ kind: 'failed', reasons: ['未检测到人脸，请正对镜头重新拍摄'], note: NOTE });
  });

  it('never a pass without a clear 2 (contradiction, missing or empty answer)', () => {
    expect(outcomeOfAnswer({ auditStatus: 2, passed: false }).kind).toBe('failed');
    expect(outcomeOfAnswer({ passed: true } as never).kind).toBe('failed');
    expect(outcomeOfAnswer(null)).toEqual({ kind: 'failed', reasons: [FAILED_DEFAULT_REASON], note: '' });
    expect(outcomeOfAnswer({ auditStatus: 0 } as never).kind).toBe('failed');
  });

  it('a failure without reasons still says something', () => {
    expect(outcomeOfAnswer({ auditStatus: 1, passed: false, reasons: [] })).toMatchObject({
      reasons: [FAILED_DEFAULT_REASON],
    });
  });
});

describe('outcomeOfError', () => {
  it('503 (the check could not run) → retry with the server message', () => {
    expect(outcomeOfError({ name: 'ApiError', code: 503, msg: '人脸核验繁忙，请稍后重试' })).toEqual({
      kind: 'retry',
      message: '人脸核验繁忙，请稍后重试',
    });
    expect(outcomeOfError({ name: 'ApiError', code: 500, msg: '' })).toEqual({
      kind: 'retry',
      message: RETRY_DEFAULT_MSG,
    });
  });

  it('timeout and no network → retry', () => {
    expect(outcomeOfError({ name: 'TIMEOUT_ERROR', code: 0, msg: '请求超时，请稍后重试' }).kind).toBe(
      'retry',
    );
    expect(outcomeOfError({ name: 'NETWORK_ERROR', code: 0, msg: '网络连接错误' }).kind).toBe('retry');
  });

  it('429, 404 (photo gone) and other refusals → this photo cannot be checked', () => {
    expect(outcomeOfError({ name: 'ApiError', code: 429, msg: '人脸核验过于频繁，请1小时后再试' })).toEqual({
      kind: 'stuck',
      message: '人脸核验过于频繁，请1小时后再试',
    });
    expect(outcomeOfError({ name: 'ApiError', code: 404, msg: '图片不存在，请重新上传' }).kind).toBe('stuck');
    expect(outcomeOfError({ name: 'ApiError', code: 400, msg: '' })).toEqual({
      kind: 'stuck',
      message: STUCK_DEFAULT_MSG,
    });
    expect(outcomeOfError(new Error('boom')).kind).toBe('stuck');
    expect(outcomeOfError(undefined)).toEqual({ kind: 'stuck', message: STUCK_DEFAULT_MSG });
  });

  it('a cancelled call or an ended session (the API client logs out) is ignored', () => {
    expect(outcomeOfError({ name: 'CANCELED', code: 0 })).toEqual({ kind: 'ignored' });
    for (const code of [401, 1005, 1006]) {
      expect(outcomeOfError({ name: 'ApiError', code, msg: 'x' })).toEqual({ kind: 'ignored' });
    }
  });
});

describe('loading page state machine', () => {
  const verifying = initialLoadingState(true);

  it('starts verifying with a selfie waiting, deciding without one', () => {
    expect(verifying).toEqual({ phase: 'verifying' });
    expect(initialLoadingState(false)).toEqual({ phase: 'deciding' });
  });

  it('verifying → passed / failed / retry / stuck', () => {
    expect(loadingReducer(verifying, { type: 'outcome', outcome: { kind: 'passed', note: NOTE } })).toEqual({
      phase: 'passed',
      note: NOTE,
    });
    expect(
      loadingReducer(verifying, { type: 'outcome', outcome: { kind: 'failed', reasons: ['r'], note: '' } }),
    ).toEqual({ phase: 'failed', reasons: ['r'] });
    expect(loadingReducer(verifying, { type: 'outcome', outcome: { kind: 'retry', message: 'm' } })).toEqual({
      phase: 'retry',
      message: 'm',
    });
    expect(loadingReducer(verifying, { type: 'outcome', outcome: { kind: 'stuck', message: 'm' } })).toEqual({
      phase: 'stuck',
      message: 'm',
    });
    expect(loadingReducer(verifying, { type: 'outcome', outcome: { kind: 'ignored' } })).toBe(verifying);
  });

  it('retry goes back to verifying only from the retry phase', () => {
    const retry: LoadingState = { phase: 'retry', message: 'm' };
    expect(loadingReducer(retry, { type: 'retry' })).toEqual({ phase: 'verifying' });
    const failed: LoadingState = { phase: 'failed', reasons: ['r'] };
    expect(loadingReducer(failed, { type: 'retry' })).toBe(failed);
    expect(loadingReducer(verifying, { type: 'retry' })).toBe(verifying);
  });

  it('a late answer never overrides a decision', () => {
    const passed: LoadingState = { phase: 'passed', note: '' };
    const late: LoadingEvent = { type: 'outcome', outcome: { kind: 'failed', reasons: ['x'], note: '' } };
    expect(loadingReducer(passed, late)).toBe(passed);
    const deciding = initialLoadingState(false);
    expect(loadingReducer(deciding, late)).toBe(deciding);
  });
});

describe('handoffAfter', () => {
  it('a decision forgets the selfie; a failure keeps its reasons for the identity page', () => {
    expect(handoffAfter({ kind: 'passed', note: '' })).toEqual({ clearPending: true, failure: [] });
    expect(handoffAfter({ kind: 'failed', reasons: ['a', 'b'], note: '' })).toEqual({
      clearPending: true,
      failure: ['a', 'b'],
    });
    expect(handoffAfter({ kind: 'stuck', message: 'gone' })).toEqual({
      clearPending: true,
      failure: ['gone'],
    });
  });

  it('retry and ignored keep the selfie for another try', () => {
    expect(handoffAfter({ kind: 'retry', message: 'm' })).toEqual({ clearPending: false, failure: null });
    expect(handoffAfter({ kind: 'ignored' })).toEqual({ clearPending: false, failure: null });
  });
});
