import { describe, expect, it } from 'vitest';
import { browserOnline, NETWORK_ERROR_MSG, sendCodeStep, waitAfterSendFailure } from './send-code';

const idle = { counting: false, sending: false, online: true };

describe('sendCodeStep: a tap on 获取验证码 (issue 16.7)', () => {
  it('online and idle: send', () => {
    expect(sendCodeStep(idle)).toEqual({ kind: 'send' });
  });

  it('offline: send nothing, say 网络连接错误 at once', () => {
    expect(sendCodeStep({ ...idle, online: false })).toEqual({ kind: 'offline', message: '网络连接错误' });
    expect(NETWORK_ERROR_MSG).toBe('网络连接错误');
  });

  it('counting down: wait (even offline)', () => {
    expect(sendCodeStep({ ...idle, counting: true })).toEqual({ kind: 'wait' });
    expect(sendCodeStep({ ...idle, counting: true, online: false })).toEqual({ kind: 'wait' });
  });

  it('a send in flight: wait', () => {
    expect(sendCodeStep({ ...idle, sending: true })).toEqual({ kind: 'wait' });
  });
});

describe('browserOnline', () => {
  it('offline only when navigator.onLine is false', () => {
    expect(browserOnline({ onLine: false })).toBe(false);
    expect(browserOnline({ onLine: true })).toBe(true);
    expect(browserOnline({})).toBe(true);
    expect(browserOnline(undefined)).toBe(true);
  });
});

describe('waitAfterSendFailure', () => {
  it('a network failure, a timeout or a refusal: tappable at once', () => {
    expect(waitAfterSendFailure({ name: 'NETWORK_ERROR', code: 0, data: null })).toBe(0);
    expect(waitAfterSendFailure({ name: 'TIMEOUT_ERROR', code: 0, data: null })).toBe(0);
    expect(waitAfterSendFailure({ code: 400, data: { retryAfter: 30 } })).toBe(0);
    expect(waitAfterSendFailure(new TypeError('Failed to fetch'))).toBe(0);
    expect(waitAfterSendFailure(undefined)).toBe(0);
  });

  it('a rate limit: the server’s retryAfter', () => {
    expect(waitAfterSendFailure({ code: 429, data: { retryAfter: 42 } })).toBe(42);
    expect(waitAfterSendFailure({ code: 429, data: { retryAfter: 1.2 } })).toBe(2);
    expect(waitAfterSendFailure({ code: 429, data: null })).toBe(0);
    expect(waitAfterSendFailure({ code: 429, data: { retryAfter: -1 } })).toBe(0);
  });
});
