import { NEWS_CATEGORIES as SERVER_CATEGORIES } from '@lm/shared/schemas/content';
import { describe, expect, it } from 'vitest';
import { isNewsCategory, NEWS_CATEGORIES } from './categories';

describe('news categories', () => {
  it('are the server’s categories, in the same order', () => {
    expect([...NEWS_CATEGORIES]).toEqual([...SERVER_CATEGORIES]);
  });

  it('recognise only known categories (a link may carry anything)', () => {
    expect(isNewsCategory('防骗提醒')).toBe(true);
    expect(isNewsCategory('全部')).toBe(false);
    expect(isNewsCategory('')).toBe(false);
    expect(isNewsCategory(null)).toBe(false);
  });
});
