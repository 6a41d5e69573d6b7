import { describe, expect, it, vi } from 'vitest';

describe('the region table chunk (issue 44.1)', () => {
  it('is loaded again after a failed load (no network), not refused for the rest of the visit', async () => {
    let calls = 0;
    vi.doMock('@lm/shared/regions', async (importOriginal) => {
      calls++;
      if (calls === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return importOriginal();
    });
    const { loadRegionTable } = await import('./city-picker');
    await expect(loadRegionTable()).rejects.toThrow();
    const table = await loadRegionTable();
    expect(table.findCity('440100')).not.toBeNull();
    expect(calls).toBe(2);
    vi.doUnmock('@lm/shared/regions');
  });
});
