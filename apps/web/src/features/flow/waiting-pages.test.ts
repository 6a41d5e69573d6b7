import { describe, expect, it } from 'vitest';
import { NAVIGATION_DELAY_MS } from '@/config/constants';
import { delayBefore, WAITING_PAGES } from './waiting-pages';

describe('delayBefore (issue 44.13: one navigation delay per step)', () => {
  it('opens a waiting page at once, with or without a query', () => {
    for (const page of WAITING_PAGES) {
      expect(delayBefore(page)).toBe(0);
      expect(delayBefore(`${page}?matchKey=k1.abc&adChannelCode=demo`)).toBe(0);
      expect(delayBefore(`${page}/#top`)).toBe(0);
    }
  });

  it('the four waiting steps of the issue are waiting pages', () => {
    expect(WAITING_PAGES).toEqual(
      expect.arrayContaining([
        '/fill-information/waiting',
        '/fill-information/rematch-waiting',
        '/credit-process/face-verification-loading',
        '/credit-process/credit-personal-loading',
      ]),
    );
  });

  it('keeps the spec’s delay (500 ms) before any other page', () => {
    expect(NAVIGATION_DELAY_MS).toBe(500);
    for (const page of [
      '/fill-information/common-authorize',
      '/fill-information/success?revisit=1',
      '/credit-process/credit-personal-infomation',
      '/fill-information',
      '/fill-information/waiting-results',
      '/',
    ]) {
      expect(delayBefore(page)).toBe(NAVIGATION_DELAY_MS);
    }
  });
});
