import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../errors.ts';
import { ApiError } from './api-client.ts';
import { withChallenge } from './challenge.ts';

const challenged = (n: number) =>
  new ApiError(ErrorCode.CHALLENGE_REQUIRED, '请完成安全验证', { challenge: { n } });

describe('withChallenge (ADR 055)', () => {
  it('sends once without a challenge when none is asked for', async () => {
    const send = vi.fn(async (altcha?: string) => ({ altcha }));
    const solve = vi.fn();
    expect(await withChallenge(send, { showError: vi.fn(), solve })).toEqual({ altcha: undefined });
    expect(solve).not.toHaveBeenCalled();
  });

  it('solves a 1008 challenge, shows the solving state, and sends again with the solution', async () => {
    const states: boolean[] = [];
    const send = vi.fn(async (altcha?: string) => {
      if (!altcha) throw challenged(1);
      return { altcha };
    });
    const result = await withChallenge(send, {
      showError: vi.fn(),
      onSolving: (s) => states.push(s),
      solve: async (c) => `solved-${(c as { n: number }).n}`,
    });
    expect(result).toEqual({ altcha: 'solved-1' });
    expect(states).toEqual([true, false]);
  });

  it('solves a second challenge once more, then gives up showing the server’s message', async () => {
    const showError = vi.fn();
    let calls = 0;
    const send = async () => {
      calls++;
      throw challenged(calls);
    };
    await expect(withChallenge(send, { showError, solve: async () => 'x' })).rejects.toMatchObject({
      code: 1008,
    });
    expect(calls).toBe(3);
    expect(showError).toHaveBeenCalledWith('请完成安全验证');
  });

  it('passes any other error through untouched (the API client showed it)', async () => {
    const limited = new ApiError(429, '该手机号本小时获取验证码次数已达上限');
    const showError = vi.fn();
    await expect(
      withChallenge(
        async () => {
          throw limited;
        },
        { showError, solve: async () => 'x' },
      ),
    ).rejects.toBe(limited);
    expect(showError).not.toHaveBeenCalled();
  });

  it('says so when the solver fails', async () => {
    const showError = vi.fn();
    await expect(
      withChallenge(
        async () => {
          throw challenged(1);
        },
        {
          showError,
          solve: async () => {
            throw new Error('安全验证超时，请重试');
          },
        },
      ),
    ).rejects.toMatchObject({ code: 1008 });
    expect(showError).toHaveBeenCalledWith('安全验证超时，请重试');
  });
});
