import { REAL_NAME_PATTERN } from '@lm/shared/validators/real-name';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { z } from 'zod';
import { ImageDecodeError, MAX_INPUT_PIXELS } from '../../lib/image.ts';
import { type TencentApiClient, TencentApiError } from '../tencent/client.ts';
import { findIdNumber } from './parse.ts';
import type { IdCardImage, IdCardOcrProvider, IdCardOcrResult } from './types.ts';

/**
 * Tencent Cloud OCR 身份证识别 (`IDCardOCR`, version 2018-11-19, host ocr.tencentcloudapi.com):
 * `{ImageBase64, CardSide: "FRONT"}` → `{Name, Sex, Nation, Birth, Address, IdNum, …}`. The image
 * may be at most 7 MB after Base64, so larger uploads are re-encoded first. Written from Tencent's
 * API documentation and SDK type definitions; never run against the real service here.
 */
export const TENCENT_IDCARD_OCR = { service: 'ocr', version: '2018-11-19', action: 'IDCardOCR' } as const;

const answer = z.object({ Name: z.string().optional(), IdNum: z.string().optional() });

/** Under ~3.5 MB the original is sent; larger pictures go as JPEG, longest side ≤ 2000. */
async function forUpload(body: Buffer): Promise<Buffer> {
  if (body.length <= 3_500_000) return body;
  try {
    return await sharp(body, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: 2000, height: 2000, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch (err) {
    throw new ImageDecodeError((err as Error).message);
  }
}

export class TencentIdCardOcrProvider implements IdCardOcrProvider {
  readonly name = 'tencent';

  constructor(
    private readonly client: TencentApiClient,
    private readonly log: FastifyBaseLogger,
  ) {}

  async read(image: IdCardImage): Promise<IdCardOcrResult> {
    const body = await forUpload(image.body);
    const started = performance.now();
    const nothing = (outcome: IdCardOcrResult['outcome'], code: string): IdCardOcrResult => ({
      name: null,
      idNumber: null,
      method: 'provider',
      outcome,
      details: { engine: 'tencent IDCardOCR', code, ms: Math.round(performance.now() - started) },
    });
    let raw: Record<string, unknown>;
    try {
      raw = await this.client.call(
        TENCENT_IDCARD_OCR.service,
        TENCENT_IDCARD_OCR.version,
        TENCENT_IDCARD_OCR.action,
        { ImageBase64: body.toString('base64'), CardSide: 'FRONT' },
      );
    } catch (err) {
      // FailedOperation.*: the service read the picture and found no card / could not read it.
      if (err instanceof TencentApiError && err.code.startsWith('FailedOperation.'))
        return nothing('read', err.code);
      const e = err as Error;
      this.log.warn({ err: { name: e.name, message: e.message } }, 'ID-card OCR service failed');
      return nothing('unavailable', err instanceof TencentApiError ? err.code : 'error');
    }
    const parsed = answer.safeParse(raw);
    if (!parsed.success) return nothing('unavailable', 'malformed');
    const name = parsed.data.Name?.replace(/\s+/g, '') || null;
    return {
      name: name && REAL_NAME_PATTERN.test(name) ? name : null,
      idNumber: parsed.data.IdNum ? findIdNumber(parsed.data.IdNum) : null,
      method: 'provider',
      outcome: 'read',
      details: { engine: 'tencent IDCardOCR', ms: Math.round(performance.now() - started) },
    };
  }
}
