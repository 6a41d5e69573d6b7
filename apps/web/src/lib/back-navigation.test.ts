import { describe, expect, it } from 'vitest';
import { BACK_STATE, isBackNavigation } from './back-navigation';

describe('isBackNavigation', () => {
  it('the browser’s back (POP) is a step back, whatever the state', () => {
    expect(isBackNavigation('POP', { state: null })).toBe(true);
  });

  it('a header’s back arrow to its fallback page (BACK_STATE) is a step back', () => {
    expect(isBackNavigation('REPLACE', { state: BACK_STATE })).toBe(true);
  });

  it('links and buttons are not', () => {
    expect(isBackNavigation('PUSH', { state: null })).toBe(false);
    expect(isBackNavigation('REPLACE', { state: undefined })).toBe(false);
    expect(isBackNavigation('PUSH', { state: { back: 'yes' } })).toBe(false);
    expect(isBackNavigation('REPLACE', { state: 'back' })).toBe(false);
  });
});
