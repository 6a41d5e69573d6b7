import { describe, expect, it } from 'vitest';
import { memoizeRecent } from './recent-memo.ts';

function counted(limit: number, sightings?: number) {
  const calls: string[] = [];
  const memo = memoizeRecent(
    (k: string) => {
      calls.push(k);
      return `h(${k})`;
    },
    limit,
    sightings === undefined ? undefined : { sightings },
  );
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

describe('memoizeRecent, repeats only (ADR 052)', () => {
  it('keeps a key from its second asking on, not its first', () => {
    const { memo, calls } = counted(100, 1000);
    expect(memo('a')).toBe('h(a)');
    expect(memo('a')).toBe('h(a)');
    expect(memo('a')).toBe('h(a)');
    expect(memo('a')).toBe('h(a)');
    expect(calls).toEqual(['a', 'a']);
  });

  it('keeps almost none of many keys asked once, and remembers those asked twice within the sightings', () => {
    const { memo, calls } = counted(10_000, 5000);
    for (let i = 0; i < 5000; i++) memo(`new-${i}`);
    calls.length = 0;
    // Asked once each before: most are asked of the function again (kept only where a bit was shared).
    for (let i = 0; i < 5000; i++) memo(`other-${i}`);
    expect(calls.length).toBe(5000);
    calls.length = 0;
    // A second time: asked of the function unless a shared bit kept it the first time (a few %), and kept now.
    for (let i = 0; i < 1000; i++) memo(`other-${i}`);
    expect(calls.length).toBeGreaterThan(900);
    calls.length = 0;
    for (let i = 0; i < 1000; i++) memo(`other-${i}`);
    expect(calls).toEqual([]);
  });

  it('forgets a sighting after 2 × sightings others: asked again then, it counts as a first sighting', () => {
    const { memo, calls } = counted(100, 4);
    memo('x');
    for (let i = 0; i < 8; i++) memo(`k${i}`);
    memo('x'); // its bit was in a generation now dropped (unless a later key shares it)
    calls.length = 0;
    memo('x');
    memo('x');
    // Kept at its second asking within the window: at most one more call.
    expect(calls.length).toBeLessThanOrEqual(1);
    expect(calls.every((k) => k === 'x')).toBe(true);
  });

  it('refuses sightings that are not a positive integer', () => {
    expect(() => memoizeRecent(String, 4, { sightings: 0 })).toThrow(RangeError);
  });
});
