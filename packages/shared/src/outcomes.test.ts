import { describe, expect, it } from 'vitest';
import {
  OUTCOME_STATUSES,
  type OutcomeStatus,
  outcomeTermsText,
  outcomeTransition,
  outcomeYuan,
} from './outcomes.ts';

describe('outcomeTransition (issue 47.4)', () => {
  const table: [OutcomeStatus | null, OutcomeStatus, 'apply' | 'keep' | 'refuse'][] = [
    [null, 'received', 'apply'],
    ['approved', 'received', 'keep'],
    [null, 'duplicate', 'apply'],
    ['received', 'duplicate', 'apply'],
    ['duplicate', 'duplicate', 'keep'],
    ['approved', 'duplicate', 'refuse'],
    ['received', 'declined', 'apply'],
    ['approved', 'declined', 'apply'],
    ['declined', 'declined', 'keep'],
    ['funded', 'declined', 'refuse'],
    ['duplicate', 'declined', 'refuse'],
    [null, 'approved', 'apply'],
    ['received', 'approved', 'apply'],
    ['approved', 'approved', 'keep'],
    ['funded', 'approved', 'keep'],
    ['declined', 'approved', 'refuse'],
    [null, 'funded', 'apply'],
    ['approved', 'funded', 'apply'],
    ['funded', 'funded', 'apply'],
    ['declined', 'funded', 'refuse'],
    ['duplicate', 'funded', 'refuse'],
  ];
  it.each(table)('%s then %s: %s', (current, incoming, expected) => {
    expect(outcomeTransition(current, incoming)).toBe(expected);
  });
  it('covers every pair, and a funded lead is only ever funded again', () => {
    for (const current of [null, ...OUTCOME_STATUSES])
      for (const incoming of OUTCOME_STATUSES)
        expect(['apply', 'keep', 'refuse']).toContain(outcomeTransition(current, incoming));
    expect(OUTCOME_STATUSES.filter((s) => outcomeTransition('funded', s) === 'apply')).toEqual(['funded']);
  });
});

describe('outcomeYuan', () => {
  it('writes fen as yuan with thousands separators, cents only when there are any', () => {
    expect(outcomeYuan(2_000_000)).toBe('20,000 元');
    expect(outcomeYuan(1_234_567)).toBe('12,345.67 元');
    expect(outcomeYuan(5)).toBe('0.05 元');
    expect(outcomeYuan(0)).toBe('0 元');
    expect(outcomeYuan(1_000_000_000_00)).toBe('1,000,000,000 元');
  });
});

describe('outcomeTermsText', () => {
  const none = { limitFen: null, rateBps: null, amountFen: null, termMonths: null };
  it('names each term that is there, in order, and a dash for none', () => {
    expect(outcomeTermsText(none)).toBe('—');
    expect(outcomeTermsText({ ...none, limitFen: 2_000_000, rateBps: 1800 })).toBe(
      '额度 20,000 元 · 年化 18.00%',
    );
    expect(outcomeTermsText({ ...none, amountFen: 1_234_567, termMonths: 12 })).toBe(
      '放款 12,345.67 元 · 12 期',
    );
  });
});
