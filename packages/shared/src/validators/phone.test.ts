import { describe, expect, it } from 'vitest';
import { phoneSchema } from '../schemas/common.ts';
import { isValidPhone, PHONE_FORMAT_MSG, PHONE_REQUIRED_MSG } from './phone.ts';

describe('phone rule 1[3-9] + 9 digits', () => {
  it('accepts every second digit from 3 to 9', () => {
    for (let d = 3; d <= 9; d++) expect(isValidPhone(`1${d}012345678`)).toBe(true);
  });
  it('rejects the rest', () => {
    for (const v of [
      '',
      '12012345678',
      '10012345678',
      '23812345678',
      '1381234567',
      '138123456789',
      '1381234567a',
      ' 13812345678',
      13812345678,
      null,
    ]) {
      expect(isValidPhone(v)).toBe(false);
    }
  });
  it('gives the spec toasts from the schema', () => {
    expect(phoneSchema.safeParse('').error?.issues[0]?.message).toBe(PHONE_REQUIRED_MSG);
    expect(phoneSchema.safeParse('12345').error?.issues[0]?.message).toBe(PHONE_FORMAT_MSG);
    expect(phoneSchema.safeParse(' 13812345678 ').data).toBe('13812345678');
  });
});
