import { cropScale, decodeImage, grayStats, ImageDecodeError, laplacianVariance } from '../../lib/image.ts';
import { FaceDetector, FaceDetectorError } from './detector.ts';
import {
  type FaceCheckInput,
  type FaceCheckResult,
  FaceCheckUnavailableError,
  type FaceProvider,
  type FaceReason,
} from './types.ts';

/**
 * Thresholds of the local check. The face ones were set on drawn test portraits (see
 * apps/server/test/specimens.ts), not on a corpus of real selfies: tune them with real traffic.
 */
export const LOCAL_FACE_RULES = {
  /** Longest side the detector sees (the picture is scaled down to it). */
  analysisSide: 640,
  /** Shorter side of the original, at least. */
  minSidePx: 200,
  /** Standard deviation of the grey levels below which the picture is blank or one colour. */
  minGrayStdev: 10,
  /** Detector confidence for a face to count. */
  minFaceScore: 0.5,
  /** Face width as a share of the picture's width, at least … */
  minFaceWidthRatio: 0.2,
  /** … and in pixels of the original, at least. */
  minFacePx: 80,
  /** Width the face is scaled to before measuring sharpness. */
  sharpnessWidth: 128,
  /** Variance of the Laplacian of the face below which it is blurred. */
  minSharpness: 25,
} as const;

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * Offline check of a selfie: decodable, large enough, not blank, exactly one face (SSD MobileNet v1,
 * weights shipped in @vladmandic/face-api), the face large enough and sharp. It does not compare
 * the face with anyone's ID photo: a pass says `identityVerified: null`, never true.
 */
export class LocalFaceProvider implements FaceProvider {
  readonly name = 'local';
  readonly needsIdentity = false;
  private readonly detector: FaceDetector;

  constructor(detector?: FaceDetector) {
    this.detector = detector ?? new FaceDetector({ minConfidence: LOCAL_FACE_RULES.minFaceScore });
  }

  async check(input: FaceCheckInput): Promise<FaceCheckResult> {
    const started = performance.now();
    const R = LOCAL_FACE_RULES;
    const fail = (reason: FaceReason, details: Record<string, unknown>): FaceCheckResult => ({
      passed: false,
      identityVerified: null,
      method: 'local-detection',
      reasons: [reason],
      details: { ...details, ms: Math.round(performance.now() - started) },
    });

    let img: Awaited<ReturnType<typeof decodeImage>>;
    try {
      img = await decodeImage(input.image, R.analysisSide);
    } catch (err) {
      if (err instanceof ImageDecodeError) return fail('undecodable', {});
      throw err;
    }
    const details: Record<string, unknown> = { width: img.width, height: img.height };
    if (Math.min(img.width, img.height) < R.minSidePx) return fail('too-small', details);
    const { stdev } = grayStats(img.gray);
    details.grayStdev = round(stdev, 1);
    if (stdev < R.minGrayStdev) return fail('blank', details);

    let faces: Awaited<ReturnType<FaceDetector['detect']>>;
    const detectStarted = performance.now();
    try {
      faces = await this.detector.detect(img.rgb);
    } catch (err) {
      if (err instanceof FaceDetectorError) {
        throw new FaceCheckUnavailableError(`face detector: ${err.message}`, err.reason === 'busy');
      }
      throw err;
    }
    details.detectMs = Math.round(performance.now() - detectStarted);
    faces = faces.filter((f) => f.score >= R.minFaceScore);
    details.faces = faces.length;
    details.faceScores = faces.map((f) => round(f.score));
    if (faces.length === 0) return fail('no-face', details);
    if (faces.length > 1) return fail('multiple-faces', details);

    const face = faces[0]!;
    const scale = img.width / img.rgb.width;
    details.faceWidthRatio = round(face.width / img.rgb.width);
    details.facePx = Math.round(face.width * scale);
    if (face.width / img.rgb.width < R.minFaceWidthRatio || face.width * scale < R.minFacePx) {
      return fail('face-too-small', details);
    }
    const sharpness = laplacianVariance(cropScale(img.gray, face, R.sharpnessWidth));
    details.sharpness = round(sharpness, 1);
    if (sharpness < R.minSharpness) return fail('blurred', details);

    return {
      passed: true,
      identityVerified: null,
      method: 'local-detection',
      reasons: [],
      details: { ...details, ms: Math.round(performance.now() - started) },
    };
  }

  close(): Promise<void> {
    return this.detector.close();
  }
}
