import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import { TencentApiClient } from '../tencent/client.ts';
import { LocalIdCardOcrProvider } from './local.ts';
import { TencentIdCardOcrProvider } from './tencent.ts';
import type { IdCardOcrProvider } from './types.ts';

export { OcrEngineError } from './local.ts';
export type { IdCardImage, IdCardOcrProvider, IdCardOcrResult } from './types.ts';

/** The provider chosen by OCR_PROVIDER: `local` (tesseract.js, offline) or `tencent` (IDCardOCR). */
export function createIdCardOcrProvider(config: Env, log: FastifyBaseLogger): IdCardOcrProvider {
  if (config.OCR_PROVIDER === 'tencent') {
    const client = new TencentApiClient({
      secretId: config.TENCENT_SECRET_ID!,
      secretKey: config.TENCENT_SECRET_KEY!,
      region: config.TENCENT_REGION,
    });
    return new TencentIdCardOcrProvider(client, log);
  }
  return new LocalIdCardOcrProvider();
}
