import { describe, expect, it } from 'vitest';
import { readInt, readPaging, readSort, toSearchParams } from './url-filters';

const q = (s: string) => new URLSearchParams(s);

describe('url filters', () => {
  it('reads paging, sort and bounded integers', () => {
    expect(readPaging(q('page=3&pageSize=50'))).toEqual({ page: 3, pageSize: 50 });
    expect(readPaging(q('page=0&pageSize=10'))).toEqual({ page: 1, pageSize: 20 });
    expect(readPaging(q('pageSize=10'), [10, 20])).toEqual({ page: 1, pageSize: 10 });
    expect(readSort(q('sort=id'), ['id'])).toEqual({ sort: 'id', order: 'desc' });
    expect(readSort(q('sort=x&order=asc'), ['id'])).toEqual({ sort: undefined, order: undefined });
    expect(readInt(q('linkType=10'), 'linkType', 9)).toBeUndefined();
    expect(readInt(q('linkType=9'), 'linkType', 9)).toBe(9);
  });

  it('writes in key order, leaving out empty values and defaults', () => {
    const f = { q: '', status: 0, sort: 'id', order: 'asc', page: 2, pageSize: 20 };
    expect(toSearchParams(f).toString()).toBe('status=0&sort=id&order=asc&page=2');
    expect(
      toSearchParams(
        { kind: 'deletion', overdue: false, page: 1 },
        { defaults: { kind: 'deletion' } },
      ).toString(),
    ).toBe('overdue=0');
  });

  it('drops a lone order only when asked', () => {
    const f = { sort: undefined, order: 'desc', page: 1, pageSize: 50 };
    expect(toSearchParams(f, { orderNeedsSort: true }).toString()).toBe('pageSize=50');
    expect(toSearchParams(f).toString()).toBe('order=desc&pageSize=50');
  });
});
