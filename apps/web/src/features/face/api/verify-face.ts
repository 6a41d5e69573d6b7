import type { FaceVerifyBody, FaceVerifyData } from '@lm/shared/schemas/credit';
import { api } from '@/lib/api-client';

export type { FaceVerifyData };

export interface FaceVerifyInput {
  /** The selfie's URL (private `face` folder). */
  image: string;
  /** Both or neither: for a service that compares the face with the ID photo. */
  realName?: string;
  identity?: string;
}

/**
 * POST /api/app/userInfo/faceVerify — checks the selfie and records the face status (2 passed,
 * 1 failed). Silent: the loading page says what happened. Shape: faceVerifyData of
 * @lm/shared/schemas/credit (types only here: the browser bundle does not carry zod).
 */
export function verifyFace(input: FaceVerifyInput): Promise<FaceVerifyData> {
  // Both or neither (the server refuses one without the other).
  const body: FaceVerifyBody =
    input.realName && input.identity
      ? { image: input.image, realName: input.realName, identity: input.identity }
      : { image: input.image };
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
