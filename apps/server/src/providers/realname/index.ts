import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import { AliyunRealNameProvider } from './aliyun.ts';
import { LocalRealNameProvider } from './local.ts';
import type { RealNameProvider } from './types.ts';

export type { RealNameProvider, RealNameQuery, RealNameReason, RealNameResult } from './types.ts';
export { REALNAME_NOTES } from './types.ts';

/** The provider chosen by REALNAME_PROVIDER: `local` (format only) or `aliyun` (ID two-factor). */
export function createRealNameProvider(config: Env, log: FastifyBaseLogger): RealNameProvider {
  if (config.REALNAME_PROVIDER === 'aliyun') {
    return new AliyunRealNameProvider({ appCode: config.REALNAME_APPCODE!, log });
  }
  return new LocalRealNameProvider();
}
