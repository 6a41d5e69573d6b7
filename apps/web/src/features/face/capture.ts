/**
 * The selfie camera (issue 5 "Face verification"): the front camera through getUserMedia, a frame
 * drawn onto a canvas and encoded as JPEG, and the same downscaling for a photo picked through the
 * file input. The sizing and the error classification are pure (unit-tested); the rest needs a DOM.
 */

/** Longest side of a selfie sent for the face check (the check needs ≥ 200 px on the shorter side). */
export const SELFIE_MAX_SIDE = 1280;
/** Longest side of an ID-card photo sent to the OCR (it works on 1000–2000 px wide pictures). */
export const ID_CARD_MAX_SIDE = 2000;
/** Shorter side below which the face check refuses the picture (apps/server providers/face). */
export const MIN_SHORT_SIDE = 200;
export const JPEG_QUALITY = 0.9;

export interface CaptureSize {
  width: number;
  height: number;
}

/**
 * The canvas size for a frame of `width` × `height`: the same aspect ratio, the longest side at
 * most `maxSide` (never enlarged). null while the video has no frame yet (0 × 0) or for nonsense.
 */
export function captureSize(width: number, height: number, maxSide = SELFIE_MAX_SIDE): CaptureSize | null {
  if (!(Number.isFinite(width) && Number.isFinite(height)) || width < 1 || height < 1) return null;
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** Too small for the face check (its shorter side under 200 px): better said before the upload. */
export function isTooSmall(size: CaptureSize): boolean {
  return Math.min(size.width, size.height) < MIN_SHORT_SIDE;
}

/** Why the camera cannot be used. */
export type CameraFailure = 'denied' | 'unavailable' | 'busy' | 'unsupported';

export const CAMERA_FAILURE_MESSAGES: Record<CameraFailure, string> = {
  denied: '未获得摄像头权限。可在浏览器设置中允许本页使用摄像头后重试，或直接拍照上传。',
  unavailable: '未找到可用的摄像头，请拍照上传。',
  busy: '摄像头暂时无法打开（可能被其他应用占用），请稍后重试，或直接拍照上传。',
  unsupported: '当前浏览器不支持页面内拍摄，请拍照上传。',
};

/**
 * getUserMedia's rejection → why. Names per the Media Capture spec and the older Chrome/Firefox
 * spellings; a TypeError is what browsers throw without a secure context or with no video at all.
 */
export function cameraFailureOf(error: unknown): CameraFailure {
  const name = (error as { name?: unknown } | null)?.name;
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
    case 'ConstraintNotSatisfiedError':
      return 'unavailable';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'busy';
    default:
      return 'unsupported';
  }
}

/** The front camera, video only. Dimensions are left to the device (ideal values may crop). */
export const FRONT_CAMERA: MediaStreamConstraints = { audio: false, video: { facingMode: 'user' } };

class CameraUnsupportedError extends Error {
  override name = 'CameraUnsupportedError';
}

/** Opens the front camera; rejects (see cameraFailureOf) when it cannot. */
export async function openFrontCamera(
  devices: MediaDevices | undefined = globalThis.navigator?.mediaDevices,
): Promise<MediaStream> {
  if (!devices?.getUserMedia) throw new CameraUnsupportedError('getUserMedia unavailable');
  return devices.getUserMedia(FRONT_CAMERA);
}

/** Stops every track (the camera light goes off). */
export function stopStream(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

function canvasToJpeg(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('canvas.toBlob gave nothing'))),
      'image/jpeg',
      JPEG_QUALITY,
    );
  });
}

function draw(source: CanvasImageSource, size: CaptureSize): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const g = canvas.getContext('2d');
  if (!g) throw new Error('no 2d context');
  g.drawImage(source, 0, 0, size.width, size.height);
  return canvas;
}

/**
 * The video's current frame as JPEG (as the camera sees it: the preview is mirrored, the picture
 * is not). null while the video has no frame yet.
 */
export async function captureFrame(
  video: HTMLVideoElement,
): Promise<{ blob: Blob; size: CaptureSize } | null> {
  const size = captureSize(video.videoWidth, video.videoHeight);
  if (!size) return null;
  return { blob: await canvasToJpeg(draw(video, size)), size };
}

/**
 * A picked photo redrawn as JPEG, at most `maxSide` px (a 12-megapixel camera file becomes a few
 * hundred KB, and the orientation of its EXIF is applied). The original when the browser cannot
 * decode it (the server then says what it accepts).
 */
export async function normalizePhoto(file: File, maxSide: number): Promise<File> {
  if (typeof createImageBitmap !== 'function') return file;
  let bitmap: ImageBitmap | null = null;
  try {
    bitmap = await createImageBitmap(file);
    const size = captureSize(bitmap.width, bitmap.height, maxSide);
    if (!size) return file;
    const blob = await canvasToJpeg(draw(bitmap, size));
    return new File([blob], jpegName(file.name), { type: 'image/jpeg' });
  } catch {
    return file;
  } finally {
    bitmap?.close();
  }
}

/** `photo.heic` → `photo.jpg`; a name without an extension gets `.jpg`. */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '') || 'photo';
  return `${base}.jpg`;
}
