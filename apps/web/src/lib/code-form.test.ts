import { PHONE_FORMAT_MSG, PHONE_REQUIRED_MSG } from '@lm/shared/validators/phone';
import { describe, expect, it } from 'vitest';
import { phoneProblem, tapSendCode } from './code-form';
import { NETWORK_ERROR_MSG } from './send-code';

describe('phoneProblem', () => {
  it('names what is wrong with a typed phone', () => {
    expect(phoneProblem('')).toBe(PHONE_REQUIRED_MSG);
    expect(phoneProblem('12345')).toBe(PHONE_FORMAT_MSG);
    expect(phoneProblem('13812345678')).toBeNull();
  });
});

describe('tapSendCode: a tap on 获取验证码', () => {
  const idle = { counting: false, sending: false };
  it('sends when idle and online', () => {
    const shown: string[] = [];
    expect(tapSendCode(idle, (m) => shown.push(m), true)).toBe(true);
    expect(shown).toEqual([]);
  });
  it('offline: nothing sent, the network message shown', () => {
    const shown: string[] = [];
    expect(tapSendCode(idle, (m) => shown.push(m), false)).toBe(false);
    expect(shown).toEqual([NETWORK_ERROR_MSG]);
  });
  it('while counting down or sending: nothing, nothing shown', () => {
    const shown: string[] = [];
    expect(tapSendCode({ ...idle, counting: true }, (m) => shown.push(m), false)).toBe(false);
    expect(tapSendCode({ ...idle, sending: true }, (m) => shown.push(m), true)).toBe(false);
    expect(shown).toEqual([]);
  });
});
