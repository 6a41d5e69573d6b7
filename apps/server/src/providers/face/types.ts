/** The selfie and, when known, who the person says they are (needed to compare with the ID photo). */
export interface FaceCheckInput {
  image: Buffer;
  contentType: string;
  /** Name and identity number (checked format) — only the real adapter uses them. */
  person: { name: string; idNumber: string } | null;
}

/**
 * Why a check failed:
 * - `undecodable`, `too-small`, `blank`: the picture itself (not an image, under 200 px, one colour);
 * - `no-face`, `multiple-faces`, `face-too-small`, `blurred`: what the face detector measured;
 * - `identity-missing`: the real adapter needs the name and number and has none;
 * - `identity-mismatch`: the verification service says the face is not the ID holder's;
 * - `provider-rejected`: the service refused the picture (no face, poor quality …).
 */
export type FaceReason =
  | 'undecodable'
  | 'too-small'
  | 'blank'
  | 'no-face'
  | 'multiple-faces'
  | 'face-too-small'
  | 'blurred'
  | 'identity-missing'
  | 'identity-mismatch'
  | 'provider-rejected';

export interface FaceCheckResult {
  passed: boolean;
  /**
   * true / false only when an authority-backed service compared the face with the ID photo;
   * null when nobody did (the local check never does).
   */
  identityVerified: boolean | null;
  /** `local-detection`: face detection on this server; `provider`: a face-verification service. */
  method: 'local-detection' | 'provider';
  /** Empty when passed. */
  reasons: FaceReason[];
  /** Measurements and thresholds (no image, no personal data): stored with the attempt. */
  details: Record<string, unknown>;
}

/** Thrown when the check could not run (service outage, detector down or busy): nothing is decided. */
export class FaceCheckUnavailableError extends Error {
  constructor(
    message: string,
    readonly busy = false,
  ) {
    super(message);
    this.name = 'FaceCheckUnavailableError';
  }
}

/** Face verification of a selfie. Decides pass / fail or throws FaceCheckUnavailableError. */
export interface FaceProvider {
  readonly name: string;
  /** Whether `person` is needed (the real adapter compares with the authority's ID photo). */
  readonly needsIdentity: boolean;
  check(input: FaceCheckInput): Promise<FaceCheckResult>;
  close?(): Promise<void>;
}

/** What a person reads for each reason. */
export const FACE_REASON_MESSAGES: Record<FaceReason, string> = {
  undecodable: '照片无法识别，请重新拍摄',
  'too-small': '照片分辨率过低，请重新拍摄',
  blank: '照片为纯色或空白，请对准面部重新拍摄',
  'no-face': '未检测到人脸，请正对镜头重新拍摄',
  'multiple-faces': '检测到多张人脸，请确保仅本人入镜',
  'face-too-small': '人脸过小，请靠近镜头重新拍摄',
  blurred: '照片模糊，请保持稳定后重新拍摄',
  'identity-missing': '请先填写并核验姓名和身份证号',
  'identity-mismatch': '人脸与身份证照片不一致',
  'provider-rejected': '人脸核身未通过，请按提示重新拍摄',
};

/** The note of each method: says plainly what was and was not checked. */
export const FACE_METHOD_NOTES: Record<FaceCheckResult['method'], string> = {
  'local-detection':
    '本地检测：仅确认照片中有且只有一张足够大且清晰的人脸，未与身份证照片或公安权威库比对，身份未核验',
  provider: '人脸核身服务已将照片与身份证号对应的权威库证件照比对',
};
