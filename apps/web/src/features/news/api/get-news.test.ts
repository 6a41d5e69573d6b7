import { describe, expect, it } from 'vitest';
import { nextNewsPage } from './get-news';

const page = (p: number, size: number, total: number, count: number) => ({
  page: p,
  pageSize: size,
  total,
  list: Array.from({ length: count }, (_, i) => ({ id: i })) as never[],
});

describe('nextNewsPage', () => {
  it('asks for the next page while articles remain', () => {
    expect(nextNewsPage(page(1, 10, 25, 10))).toBe(2);
    expect(nextNewsPage(page(2, 10, 25, 10))).toBe(3);
  });

  it('stops at the last page, on an exact fit and on an empty page', () => {
    expect(nextNewsPage(page(3, 10, 25, 5))).toBeUndefined();
    expect(nextNewsPage(page(2, 10, 20, 10))).toBeUndefined();
    // Articles were unpublished meanwhile: an empty page ends the list instead of looping.
    expect(nextNewsPage(page(2, 10, 40, 0))).toBeUndefined();
  });
});
