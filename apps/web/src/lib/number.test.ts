import { describe, expect, it } from 'vitest';
import { groupThousands } from './number';

describe('groupThousands', () => {
  it('groups as en-US does for integers', () => {
    for (const n of [0, 7, 999, 1000, 10_000, 200_000, 1_234_567, 1_000_000_000, -1234, -999]) {
      expect(groupThousands(n)).toBe(n.toLocaleString('en-US'));
    }
  });
  it('rounds to the integer', () => {
    expect(groupThousands(1234.6)).toBe('1,235');
  });
});
