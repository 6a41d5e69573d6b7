import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import { BaiduGeoProvider } from './baidu.ts';
import { warmUpIpDatabase } from './ip.ts';
import { LocalGeoProvider } from './local.ts';
import type { GeoProvider } from './types.ts';

export type { Coordinates, GeoProvider, GeoResult, GeoSource } from './types.ts';

/** The provider chosen by GEO_PROVIDER: `local` (offline) or `baidu` (with the offline one as fallback). */
export function createGeoProvider(config: Env, log: FastifyBaseLogger): GeoProvider {
  warmUpIpDatabase();
  const local = new LocalGeoProvider();
  if (config.GEO_PROVIDER === 'baidu') {
    return new BaiduGeoProvider({ ak: config.BAIDU_MAP_AK!, fallback: local, log });
  }
  return local;
}
