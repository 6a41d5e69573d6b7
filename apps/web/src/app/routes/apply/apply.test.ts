import { describe, expect, it } from 'vitest';
import { matchesDraft, resultStateOf } from './rules';

describe('apply section rules', () => {
  it('compares the card with the masked draft number', () => {
    expect(matchesDraft('11010519491231002x', '110***********002X')).toBe(true);
    expect(matchesDraft('110105194912310021', '110***********002X')).toBe(false);
    expect(matchesDraft(null, '110***********002X')).toBeNull();
    expect(matchesDraft('11010519491231002X', undefined)).toBeNull();
  });

  it('maps the submit status to the result state', () => {
    expect(resultStateOf(0)).toBe('draft');
    expect(resultStateOf(1)).toBe('submitted');
    expect(resultStateOf(10)).toBe('authorized');
  });
});
