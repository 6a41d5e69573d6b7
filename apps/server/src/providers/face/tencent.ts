import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { z } from 'zod';
import { MAX_INPUT_PIXELS } from '../../lib/image.ts';
import { type TencentApiClient, TencentApiError } from '../tencent/client.ts';
import {
  type FaceCheckInput,
  type FaceCheckResult,
  FaceCheckUnavailableError,
  type FaceProvider,
} from './types.ts';

/**
 * Tencent Cloud 人脸核身 "照片人脸核身" (faceid `ImageRecognition`, version 2018-03-01): the selfie
 * with the name and identity number; the service compares the face with the authority's ID photo
 * and answers `{Sim: 0–100, Result: "Success" | business code, Description}`. Tencent recommends a
 * similarity of 70 or more for the same person. Written from Tencent's API documentation and SDK
 * type definitions; never run against the real service here.
 */
export const TENCENT_FACEID = {
  service: 'faceid',
  version: '2018-03-01',
  action: 'ImageRecognition',
} as const;
export const TENCENT_FACE_MIN_SIM = 70;

const answer = z.object({
  Sim: z.number().optional(),
  Result: z.string().optional(),
  Description: z.string().optional(),
});

/** The selfie as JPEG, longest side ≤ 1280 (the service takes ≤ 3 MB after Base64). */
async function forUpload(image: Buffer): Promise<Buffer | null> {
  try {
    return await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: 1280, height: 1280, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch {
    return null;
  }
}

export class TencentFaceProvider implements FaceProvider {
  readonly name = 'tencent';
  readonly needsIdentity = true;

  constructor(
    private readonly client: TencentApiClient,
    private readonly log: FastifyBaseLogger,
    private readonly minSim = TENCENT_FACE_MIN_SIM,
  ) {}

  async check(input: FaceCheckInput): Promise<FaceCheckResult> {
    const base = { method: 'provider' as const };
    if (!input.person) {
      return { ...base, passed: false, identityVerified: null, reasons: ['identity-missing'], details: {} };
    }
    const jpeg = await forUpload(input.image);
    if (!jpeg)
      return { ...base, passed: false, identityVerified: null, reasons: ['undecodable'], details: {} };
    const started = performance.now();
    let raw: Record<string, unknown>;
    try {
      raw = await this.client.call(TENCENT_FACEID.service, TENCENT_FACEID.version, TENCENT_FACEID.action, {
        IdCard: input.person.idNumber,
        Name: input.person.name,
        ImageBase64: jpeg.toString('base64'),
      });
    } catch (err) {
      if (err instanceof TencentApiError && err.code.startsWith('FailedOperation.')) {
        // The service looked at the picture and refused it (no face, blur, …): a failed attempt.
        return {
          ...base,
          passed: false,
          identityVerified: null,
          reasons: ['provider-rejected'],
          details: { code: err.code, ms: Math.round(performance.now() - started) },
        };
      }
      const e = err as Error;
      this.log.warn({ err: { name: e.name, message: e.message } }, 'face verification service failed');
      throw new FaceCheckUnavailableError(e.message);
    }
    const parsed = answer.safeParse(raw);
    const ms = Math.round(performance.now() - started);
    if (!parsed.success || parsed.data.Result === undefined) {
      this.log.warn('face verification service: malformed answer');
      throw new FaceCheckUnavailableError('malformed answer');
    }
    const { Sim, Result } = parsed.data;
    if (Result !== 'Success') {
      return {
        ...base,
        passed: false,
        identityVerified: null,
        reasons: ['provider-rejected'],
        details: { code: Result, ms },
      };
    }
    const same = (Sim ?? 0) >= this.minSim;
    return {
      ...base,
      passed: same,
      identityVerified: same,
      reasons: same ? [] : ['identity-mismatch'],
      details: { sim: Sim ?? null, minSim: this.minSim, ms },
    };
  }
}
