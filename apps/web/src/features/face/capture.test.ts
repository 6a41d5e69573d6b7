import { describe, expect, it, vi } from 'vitest';
import {
  CAMERA_FAILURE_MESSAGES,
  cameraFailureOf,
  captureSize,
  FRONT_CAMERA,
  ID_CARD_MAX_SIDE,
  isTooSmall,
  jpegName,
  openFrontCamera,
  SELFIE_MAX_SIDE,
  stopStream,
} from './capture';

describe('captureSize', () => {
  it('keeps a frame that fits as it is (never enlarged)', () => {
    expect(captureSize(480, 640)).toEqual({ width: 480, height: 640 });
    expect(captureSize(1280, 720)).toEqual({ width: 1280, height: 720 });
    expect(captureSize(200, 200)).toEqual({ width: 200, height: 200 });
  });

  it('scales the longest side down to the limit, keeping the aspect ratio', () => {
    expect(captureSize(1920, 1080)).toEqual({ width: SELFIE_MAX_SIDE, height: 720 });
    expect(captureSize(1080, 1920)).toEqual({ width: 720, height: SELFIE_MAX_SIDE });
    expect(captureSize(4032, 3024, ID_CARD_MAX_SIDE)).toEqual({ width: 2000, height: 1500 });
    const odd = captureSize(3000, 1999)!;
    expect(odd.width).toBe(1280);
    expect(odd.height).toBe(Math.round(1999 * (1280 / 3000)));
  });

  it('answers null while the video has no frame yet, and for nonsense', () => {
    expect(captureSize(0, 0)).toBeNull();
    expect(captureSize(640, 0)).toBeNull();
    expect(captureSize(Number.NaN, 480)).toBeNull();
    expect(captureSize(Number.POSITIVE_INFINITY, 480)).toBeNull();
    expect(captureSize(-640, 480)).toBeNull();
  });

  it('never gives a zero side for an extreme aspect ratio', () => {
    expect(captureSize(100_000, 1)).toEqual({ width: 1280, height: 1 });
  });

  it('says when a picture is too small for the face check (shorter side under 200 px)', () => {
    expect(isTooSmall({ width: 640, height: 480 })).toBe(false);
    expect(isTooSmall({ width: 200, height: 320 })).toBe(false);
    expect(isTooSmall({ width: 199, height: 320 })).toBe(true);
  });
});

describe('cameraFailureOf', () => {
  const named = (name: string) => Object.assign(new Error(name), { name });

  it('classifies getUserMedia rejections (current and legacy names)', () => {
    expect(cameraFailureOf(named('NotAllowedError'))).toBe('denied');
    expect(cameraFailureOf(named('PermissionDeniedError'))).toBe('denied');
    expect(cameraFailureOf(named('SecurityError'))).toBe('denied');
    expect(cameraFailureOf(named('NotFoundError'))).toBe('unavailable');
    expect(cameraFailureOf(named('DevicesNotFoundError'))).toBe('unavailable');
    expect(cameraFailureOf(named('OverconstrainedError'))).toBe('unavailable');
    expect(cameraFailureOf(named('NotReadableError'))).toBe('busy');
    expect(cameraFailureOf(named('TrackStartError'))).toBe('busy');
    expect(cameraFailureOf(named('AbortError'))).toBe('busy');
  });

  it('treats anything else (TypeError without a secure context, no API, garbage) as unsupported', () => {
    expect(cameraFailureOf(new TypeError('x'))).toBe('unsupported');
    expect(cameraFailureOf(undefined)).toBe('unsupported');
    expect(cameraFailureOf(null)).toBe('unsupported');
    expect(cameraFailureOf('NotAllowedError')).toBe('unsupported');
  });

  it('has a Chinese message for every failure that offers the photo upload or a retry', () => {
    for (const message of Object.values(CAMERA_FAILURE_MESSAGES)) {
      expect(message).toMatch(/拍照上传|重试/);
    }
  });
});

describe('openFrontCamera / stopStream', () => {
  it('asks for the front camera, video only', async () => {
    const stream = { getTracks: () => [] } as unknown as MediaStream;
    const getUserMedia = vi.fn().mockResolvedValue(stream);
    await expect(openFrontCamera({ getUserMedia } as unknown as MediaDevices)).resolves.toBe(stream);
    expect(getUserMedia).toHaveBeenCalledWith(FRONT_CAMERA);
    expect(FRONT_CAMERA).toEqual({ audio: false, video: { facingMode: 'user' } });
  });

  it('rejects as unsupported without mediaDevices (plain http, old webviews)', async () => {
    const error = await openFrontCamera(undefined).catch((e: unknown) => e);
    expect(cameraFailureOf(error)).toBe('unsupported');
  });

  it('stops every track, and tolerates no stream', () => {
    const tracks = [{ stop: vi.fn() }, { stop: vi.fn() }];
    stopStream({ getTracks: () => tracks } as unknown as MediaStream);
    for (const t of tracks) expect(t.stop).toHaveBeenCalledOnce();
    expect(() => stopStream(null)).not.toThrow();
    expect(() => stopStream(undefined)).not.toThrow();
  });
});

describe('jpegName', () => {
  it('swaps the extension for .jpg', () => {
    expect(jpegName('IMG_0001.HEIC')).toBe('IMG_0001.jpg');
    expect(jpegName('selfie.png')).toBe('selfie.jpg');
    expect(jpegName('photo')).toBe('photo.jpg');
    expect(jpegName('.hidden')).toBe('photo.jpg');
    expect(jpegName('a.b.webp')).toBe('a.b.jpg');
  });
});
