import { describe, expect, it } from 'vitest';
import { entryNote, statementPath, yuanText } from './format';

describe('statement formatting', () => {
  it('amounts in yuan with grouping; absent ones as a dash', () => {
    expect(yuanText(123_456)).toBe('1,234.56 元');
    expect(yuanText(-2000)).toBe('-20.00 元');
    expect(yuanText(undefined)).toBe('—');
    expect(yuanText(null)).toBe('—');
  });

  it('a return’s reason in words; an adjustment’s text with its author; else the reference', () => {
    const base = { kind: 'return', reason: 'invalid_phone', staffName: null, reference: 'return:7' };
    expect(entryNote(base)).toBe('手机号无效');
    expect(entryNote({ ...base, reason: 'duplicate' })).toBe('重复线索');
    expect(entryNote({ ...base, kind: 'adjustment', reason: '补差价', staffName: '王会计' })).toBe(
      '补差价（王会计）',
    );
    expect(entryNote({ ...base, kind: 'adjustment', reason: 'duplicate' })).toBe('duplicate');
    expect(entryNote({ ...base, kind: 'lead_revenue', reason: null, reference: 'lead:4:cpl' })).toBe(
      'lead:4:cpl',
    );
  });

  it('a statement’s address', () => {
    expect(statementPath('2026-11', 'channel', 'demo fen')).toBe('/settlement/2026-11/channel/demo%20fen');
  });
});
