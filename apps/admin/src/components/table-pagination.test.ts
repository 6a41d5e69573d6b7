import { describe, expect, it } from 'vitest';
import { fieldSortChange } from './table-pagination';

type Filters = {
  q?: string;
  sort?: 'id' | 'createdAt';
  order?: 'asc' | 'desc';
  page: number;
  pageSize: number;
};
const filters: Filters = { q: 'x', sort: 'id', order: 'asc', page: 3, pageSize: 20 };

describe('fieldSortChange', () => {
  it('takes the sorter field and direction and the page the table moved to', () => {
    expect(
      fieldSortChange(filters, { current: 2, pageSize: 50 }, { field: 'createdAt', order: 'ascend' }),
    ).toEqual({
      q: 'x',
      sort: 'createdAt',
      order: 'asc',
      page: 2,
      pageSize: 50,
    });
  });

  it('falls back to descending with no sort when the sorter is cleared, keeping the page size', () => {
    expect(fieldSortChange(filters, {}, [{ field: 'id', order: undefined }])).toEqual({
      q: 'x',
      sort: undefined,
      order: 'desc',
      page: 1,
      pageSize: 20,
    });
  });
});
