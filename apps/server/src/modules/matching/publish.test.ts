import { describe, expect, it } from 'vitest';
import { canPublish, parseHhmm } from './publish.ts';

const ok = {
  aprBps: 1800 as number | null,
  partnerLegalName: '示例消费金融有限公司',
  amountMinFen: 100_000,
  amountMaxFen: 20_000_000,
  termMinMonths: 3,
  termMaxMonths: 36,
  activeHours: null as { from: string; to: string } | null,
};
const codes = (p: Partial<typeof ok>) => canPublish({ ...ok, ...p }).map((x) => x.code);

describe('canPublish', () => {
  it('accepts a complete product', () => {
    expect(canPublish(ok)).toEqual([]);
  });
  it('allows an APR of exactly 24 % and refuses 24.01 %', () => {
    expect(codes({ aprBps: 2400 })).toEqual([]);
    expect(codes({ aprBps: 2401 })).toEqual(['APR_TOO_HIGH']);
    expect(canPublish({ ...ok, aprBps: 2401 })[0]!.text).toContain('24.01%');
  });
  it('refuses a missing or meaningless APR', () => {
    expect(codes({ aprBps: null })).toEqual(['APR_MISSING']);
    expect(codes({ aprBps: -1 })).toEqual(['APR_MISSING']);
    expect(codes({ aprBps: Number.NaN })).toEqual(['APR_MISSING']);
    expect(codes({ aprBps: 0 })).toEqual([]);
  });
  it('requires the legal name of the lender', () => {
    expect(codes({ partnerLegalName: '' })).toEqual(['LEGAL_NAME_MISSING']);
    expect(codes({ partnerLegalName: '   ' })).toEqual(['LEGAL_NAME_MISSING']);
  });
  it('refuses inverted or empty amount and term ranges, accepts equal bounds', () => {
    expect(codes({ amountMinFen: 20_000_001 })).toEqual(['AMOUNT_RANGE_INVALID']);
    expect(codes({ amountMinFen: 0 })).toEqual(['AMOUNT_RANGE_INVALID']);
    expect(codes({ amountMinFen: 20_000_000 })).toEqual([]);
    expect(codes({ termMinMonths: 37 })).toEqual(['TERM_RANGE_INVALID']);
    expect(codes({ termMinMonths: 0 })).toEqual(['TERM_RANGE_INVALID']);
    expect(codes({ termMinMonths: 36 })).toEqual([]);
  });
  it('refuses malformed active hours', () => {
    expect(codes({ activeHours: { from: '9:00', to: '21:00' } })).toEqual(['ACTIVE_HOURS_INVALID']);
    expect(codes({ activeHours: { from: '09:00', to: '24:00' } })).toEqual(['ACTIVE_HOURS_INVALID']);
    expect(codes({ activeHours: { from: '22:00', to: '02:00' } })).toEqual([]);
  });
  it('lists every problem at once', () => {
    expect(codes({ aprBps: 3600, partnerLegalName: '', amountMinFen: 5, amountMaxFen: 1 })).toEqual([
      'APR_TOO_HIGH',
      'LEGAL_NAME_MISSING',
      'AMOUNT_RANGE_INVALID',
    ]);
  });
});

describe('parseHhmm', () => {
  it('reads 00:00 to 23:59 only', () => {
    expect(parseHhmm('00:00')).toBe(0);
    expect(parseHhmm('23:59')).toBe(1439);
    expect(parseHhmm('24:00')).toBeNull();
    expect(parseHhmm('12:60')).toBeNull();
    expect(parseHhmm('')).toBeNull();
  });
});
