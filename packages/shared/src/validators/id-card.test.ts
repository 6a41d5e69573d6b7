import { describe, expect, it } from 'vitest';
import { ageFromIdCard, checkIdCard, genderFromIdCard, idCardCheckChar, isValidIdCard } from './id-card.ts';

const now = new Date('2026-11-22T04:00:00Z');
const withCheck = (first17: string) => first17 + idCardCheckChar(first17);

describe('national ID (GB 11643)', () => {
  it('computes the check character with the standard weights', () => {
    // Published specimen: 11010519491231002X
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(checkIdCard('11010519491231002X', now)).toBeNull();
    expect(checkIdCard('11010519491231002x', now)).toBeNull();
    expect(checkIdCard('110105194912310021', now)).toBe('checksum');
  });

  it('rejects wrong length and characters', () => {
    for (const v of [
      '',
      '1101051949123100',
      '11010519491231002XX',
      '1101051949123100A2',
      '11010519491231002Y',
    ]) {
      expect(checkIdCard(v, now)).toBe('format');
    }
    expect(isValidIdCard(12345, now)).toBe(false);
  });

  it('requires a valid province prefix, including Taiwan, Hong Kong and Macau', () => {
    expect(checkIdCard(withCheck('99010519900101001'), now)).toBe('region');
    expect(checkIdCard(withCheck('00010519900101001'), now)).toBe('region');
    for (const p of ['11', '65', '71', '81', '82'])
      expect(checkIdCard(withCheck(`${p}010519900101001`), now)).toBeNull();
  });

  it('requires a real past birth date', () => {
    expect(checkIdCard(withCheck('11010519900230001'), now)).toBe('birth');
    expect(checkIdCard(withCheck('11010519901301001'), now)).toBe('birth');
    expect(checkIdCard(withCheck('11010520270101001'), now)).toBe('birth');
    expect(checkIdCard(withCheck('11010518800101001'), now)).toBe('birth');
    expect(checkIdCard(withCheck('11010520000229001'), now)).toBeNull();
  });

  it('computes age in Shanghai time for 18 and 15 characters, else 0', () => {
    expect(ageFromIdCard(withCheck('11010520001122001'), now)).toBe(26);
    expect(ageFromIdCard(withCheck('11010520001123001'), now)).toBe(25);
    // 2026-11-22T20:00Z is already the 23rd in Shanghai.
    expect(ageFromIdCard(withCheck('11010520001123001'), new Date('2026-11-22T20:00:00Z'))).toBe(26);
    expect(ageFromIdCard('110105900101001', now)).toBe(36);
    expect(ageFromIdCard('1234', now)).toBe(0);
  });

  it('takes gender from the parity of the sequence digit', () => {
    expect(genderFromIdCard(withCheck('11010519900101001'))).toBe(1);
    expect(genderFromIdCard(withCheck('11010519900101002'))).toBe(2);
    expect(genderFromIdCard('110105900101003')).toBe(1);
    expect(genderFromIdCard('abc')).toBe(0);
  });
});
