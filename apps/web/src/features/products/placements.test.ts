import { AD_PLACEMENTS } from '@lm/shared/schemas/product';
import { describe, expect, it } from 'vitest';
import { PLACEMENTS, placementOf } from './placements';

describe('placements', () => {
  it('are those of the server', () => {
    expect(PLACEMENTS).toEqual(AD_PLACEMENTS);
  });

  it('read from a query value', () => {
    expect(placementOf('6')).toBe(6);
    expect(placementOf('8')).toBe(0);
    expect(placementOf('x')).toBe(0);
    expect(placementOf(null)).toBe(0);
  });
});
