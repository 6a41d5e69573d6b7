import { describe, expect, it } from 'vitest';
import { memoizeRecent } from './recent-memo.ts';

function counted(limit: number) {
  const calls: string[] = [];
  const memo = memoizeRecent((k: string) => {
    calls.push(k);
    return `h(${k})`;
  }, limit);
  return { memo, calls };
}

describe('memoizeRecent', () => {
  it('answers what the function answers, and asks it once for a key asked again', () => {
    const { memo, calls } = counted(4);
    expect(memo('a')).toBe('h(a)');
    expect(memo('a')).toBe('h(a)');
    expect(memo('b')).toBe('h(b)');
    expect(memo('a')).toBe('h(a)');
    expect(calls).toEqual(['a', 'b']);
  });

  it('remembers a key asked again within `limit` other keys, however many came before', () => {
    const { memo, calls } = counted(3);
    for (let i = 0; i < 100; i++) memo(`k${i}`);
    calls.length = 0;
    // k97, k98, k99 are the last three: each is remembered.
    expect([memo('k97'), memo('k98'), memo('k99')]).toEqual(['h(k97)', 'h(k98)', 'h(k99)']);
    expect(calls).toEqual([]);
  });

  it('holds at most two generations: a key not asked for 2 × limit others is asked of the function again', () => {
    const { memo, calls } = counted(2);
    memo('x');
    for (const k of ['a', 'b', 'c', 'd']) memo(k);
    calls.length = 0;
    expect(memo('x')).toBe('h(x)');
    expect(calls).toEqual(['x']);
  });

  it('moves a key found in the previous generation into the current one (it survives the next turnover)', () => {
    const { memo, calls } = counted(2);
    memo('a');
    memo('b'); // current: a, b
    memo('c'); // previous: a, b; current: c
    memo('a'); // a moves: current c, a
    memo('d'); // previous: c, a; current: d
    calls.length = 0;
    expect(memo('a')).toBe('h(a)');
    expect(calls).toEqual([]);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => memoizeRecent(String, 0)).toThrow(RangeError);
    expect(() => memoizeRecent(String, 1.5)).toThrow(RangeError);
  });
});
