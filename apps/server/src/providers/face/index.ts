import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import { TencentApiClient } from '../tencent/client.ts';
import { LocalFaceProvider } from './local.ts';
import { TencentFaceProvider } from './tencent.ts';
import type { FaceProvider } from './types.ts';

export type { FaceCheckInput, FaceCheckResult, FaceProvider, FaceReason } from './types.ts';
export { FACE_METHOD_NOTES, FACE_REASON_MESSAGES, FaceCheckUnavailableError } from './types.ts';

/** The provider chosen by FACE_PROVIDER: `local` (face detection, identity not verified) or `tencent`. */
export function createFaceProvider(config: Env, log: FastifyBaseLogger): FaceProvider {
  if (config.FACE_PROVIDER === 'tencent') {
    const client = new TencentApiClient({
      secretId: config.TENCENT_SECRET_ID!,
      secretKey: config.TENCENT_SECRET_KEY!,
      region: config.TENCENT_REGION,
    });
    return new TencentFaceProvider(client, log);
  }
  return new LocalFaceProvider();
}
