import { describe, expect, it } from 'vitest';
import { memoryStore } from '@/lib/storage';
import { cachedRouteCode, cacheRouteCode, isRouteCodeEntryValid, readRouteCodeMap } from './route-code';

const at = (iso: string) => Date.parse(iso);

describe('route-code cache (ROUTE_CODE_MAP, one Shanghai calendar day)', () => {
  const entry = { channelCode: 'demo', expire: '2026-05-10', planTargetUrl: null };

  it('is valid on its Shanghai day', () => {
    expect(isRouteCodeEntryValid(entry, at('2026-05-09T16:00:00Z'))).toBe(true); // 00:00 Shanghai
    expect(isRouteCodeEntryValid(entry, at('2026-05-10T15:59:59Z'))).toBe(true); // 23:59:59 Shanghai
  });

  it('is invalid the day before and after', () => {
    expect(isRouteCodeEntryValid(entry, at('2026-05-09T15:59:59Z'))).toBe(false);
    expect(isRouteCodeEntryValid(entry, at('2026-05-10T16:00:00Z'))).toBe(false);
  });

  it('rejects entries without a channel code', () => {
    expect(isRouteCodeEntryValid({ ...entry, channelCode: '' }, at('2026-05-10T04:00:00Z'))).toBe(false);
    expect(isRouteCodeEntryValid(undefined, at('2026-05-10T04:00:00Z'))).toBe(false);
  });

  it('stores with today’s Shanghai date and reads it back the same day only', () => {
    const store = memoryStore();
    const now = at('2026-05-10T17:30:00Z'); // 01:30 on 05-11 in Shanghai
    expect(cacheRouteCode(store, 'R1', { channelCode: 'demo', planTargetUrl: '/login' }, now)).toEqual({
      channelCode: 'demo',
      planTargetUrl: '/login',
      expire: '2026-05-11',
    });
    expect(JSON.parse(store.get('ROUTE_CODE_MAP')!)).toEqual({
      R1: { channelCode: 'demo', planTargetUrl: '/login', expire: '2026-05-11' },
    });
    expect(cachedRouteCode(store, 'R1', now + 3600_000)?.channelCode).toBe('demo');
    expect(cachedRouteCode(store, 'R1', at('2026-05-11T16:00:00Z'))).toBeNull();
    expect(cachedRouteCode(store, 'R2', now)).toBeNull();
  });

  it('drops the entries of earlier days when writing', () => {
    const store = memoryStore({
      ROUTE_CODE_MAP: JSON.stringify({ OLD: { ...entry, expire: '2026-01-01' } }),
    });
    cacheRouteCode(store, 'R1', { channelCode: 'x', planTargetUrl: null }, at('2026-05-10T04:00:00Z'));
    expect(Object.keys(readRouteCodeMap(store))).toEqual(['R1']);
  });

  it('survives a corrupt map', () => {
    const store = memoryStore({ ROUTE_CODE_MAP: '[1,2' });
    expect(readRouteCodeMap(store)).toEqual({});
  });
});
