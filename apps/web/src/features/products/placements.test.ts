import { describe, expect, it } from 'vitest';
import { placementOf } from './placements';

describe('placements', () => {
  it('read from a query value', () => {
    expect(placementOf('6')).toBe(6);
    expect(placementOf('8')).toBe(0);
    expect(placementOf('x')).toBe(0);
    expect(placementOf(null)).toBe(0);
  });
});
