import { describe, expect, it } from 'vitest';
import { memoryStore } from '@/lib/storage';
import { BEHAVIOR_CODE_TTL_MS, getBehaviorCode, newBehaviorCode, resolveBehaviorCode } from './behavior-code';

const T0 = 1_780_000_000_000;

describe('behavior code (spec §9)', () => {
  it('a new code is the timestamp followed by 4 random digits', () => {
    expect(newBehaviorCode(T0, () => 0.0042)).toBe(`${T0}0042`);
    expect(newBehaviorCode(T0, () => 0.99999)).toBe(`${T0}9999`);
    expect(newBehaviorCode(T0, () => 0)).toMatch(/^\d{17}$/);
  });

  it('is reused while under one hour old', () => {
    const stored = { code: `${T0}1234`, timestamp: T0 };
    expect(resolveBehaviorCode(stored, T0 + BEHAVIOR_CODE_TTL_MS - 1)).toEqual({
      value: stored,
      reused: true,
    });
  });

  it('is replaced at one hour', () => {
    const stored = { code: `${T0}1234`, timestamp: T0 };
    const next = resolveBehaviorCode(stored, T0 + BEHAVIOR_CODE_TTL_MS, () => 0.5);
    expect(next).toEqual({
      value: { code: `${T0 + BEHAVIOR_CODE_TTL_MS}5000`, timestamp: T0 + BEHAVIOR_CODE_TTL_MS },
      reused: false,
    });
  });

  it('is replaced when missing, malformed or from the future (clock changed)', () => {
    expect(resolveBehaviorCode(null, T0).reused).toBe(false);
    expect(resolveBehaviorCode({ code: 'abc', timestamp: T0 }, T0).reused).toBe(false);
    expect(resolveBehaviorCode({ code: '1', timestamp: T0 + 1000 }, T0).reused).toBe(false);
  });

  it('getBehaviorCode stores the code with its timestamp and reuses it', () => {
    const store = memoryStore();
    const first = getBehaviorCode(store, T0);
    expect(JSON.parse(store.get('BEHAVIOR_CODE')!)).toEqual({ code: first, timestamp: T0 });
    expect(getBehaviorCode(store, T0 + 30 * 60_000)).toBe(first);
    expect(getBehaviorCode(store, T0 + 61 * 60_000)).not.toBe(first);
  });
});
