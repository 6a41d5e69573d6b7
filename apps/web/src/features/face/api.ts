/**
 * Calls of the identity part of the credit process (issue 5; docs/credit-process.md "ID-card OCR and face
 * verification"). Shapes: ocrIdCardData and faceVerifyData of @lm/shared/schemas/credit (types only
 * here: the browser bundle does not carry zod).
 */
import type { FaceVerifyData, OcrIdCardData } from '@lm/shared/schemas/credit';
import { api } from '@/lib/api-client';

export type { FaceVerifyData, OcrIdCardData };

/**
 * POST /api/app/userInfo/getOcrResultByIDCardPic — what the card front says (the upload's URL in
 * the private `idcard` folder), to pre-fill the form for the person to confirm.
 */
export function readIdCard(image: string): Promise<OcrIdCardData> {
  return api.post<OcrIdCardData>('/api/app/userInfo/getOcrResultByIDCardPic', { image });
}

export interface FaceVerifyInput {
  /** The selfie's URL (private `face` folder). */
  image: string;
  /** Both or neither: for a service that compares the face with the ID photo. */
  realName?: string;
  identity?: string;
}

/**
 * POST /api/app/userInfo/faceVerify — checks the selfie and records the face status (2 passed,
 * 1 failed). Silent: the loading page says what happened.
 */
export function verifyFace(input: FaceVerifyInput): Promise<FaceVerifyData> {
  const body: Record<string, unknown> = { image: input.image };
  if (input.realName && input.identity) {
    body.realName = input.realName;
    body.identity = input.identity;
  }
  return api.post<FaceVerifyData>('/api/app/userInfo/faceVerify', body, {
    silent: true,
    cancelPrevious: false,
  });
}

const inFlight = new Map<string, Promise<FaceVerifyData>>();

/**
 * One check per selfie at a time (a remounted page, or React's development double effects, reuse
 * the running one: each check counts against the hourly limit and is recorded).
 */
export function verifyFaceOnce(input: FaceVerifyInput): Promise<FaceVerifyData> {
  const running = inFlight.get(input.image);
  if (running) return running;
  const call = verifyFace(input).finally(() => inFlight.delete(input.image));
  inFlight.set(input.image, call);
  return call;
}
