import sharp from 'sharp';

/**
 * Decoding uploaded images (sharp / libvips, prebuilt binaries from npm) and the plain pixel
 * measures used to judge a photo: brightness spread (blank or uniform image) and sharpness
 * (variance of the Laplacian).
 */

/** Largest decoded image accepted (pixels): a 10 MB upload cannot be a decompression bomb. */
export const MAX_INPUT_PIXELS = 50_000_000;

export class ImageDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageDecodeError';
  }
}

export interface DecodedImage {
  /** Size of the upright original (EXIF orientation applied). */
  width: number;
  height: number;
  /** The image scaled to fit `maxSide` (never enlarged), RGB. */
  rgb: { width: number; height: number; data: Uint8Array };
  /** The same scaled image in grey levels. */
  gray: { width: number; height: number; data: Uint8Array };
}

/** Decodes JPEG / PNG / WebP, applies EXIF orientation, scales to fit `maxSide`. */
export async function decodeImage(input: Buffer, maxSide: number): Promise<DecodedImage> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (err) {
    throw new ImageDecodeError((err as Error).message);
  }
  if (!meta.width || !meta.height) throw new ImageDecodeError('no dimensions');
  const swap = (meta.orientation ?? 1) >= 5;
  const width = swap ? meta.height : meta.width;
  const height = swap ? meta.width : meta.height;
  try {
    const base = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha();
    const rgb = await base.clone().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const gray = await base
      .clone()
      .greyscale()
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      width,
      height,
      rgb: { width: rgb.info.width, height: rgb.info.height, data: new Uint8Array(rgb.data) },
      gray: {
        width: gray.info.width,
        height: gray.info.height,
        data: new Uint8Array(gray.data.subarray(0, gray.info.width * gray.info.height)),
      },
    };
  } catch (err) {
    throw new ImageDecodeError((err as Error).message);
  }
}

export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Mean and standard deviation of the grey levels (0–255). */
export function grayStats(img: GrayImage): { mean: number; stdev: number } {
  const n = img.width * img.height;
  if (n === 0) return { mean: 0, stdev: 0 };
  let sum = 0;
  let sq = 0;
  for (let i = 0; i < n; i++) {
    const v = img.data[i]!;
    sum += v;
    sq += v * v;
  }
  const mean = sum / n;
  return { mean, stdev: Math.sqrt(Math.max(sq / n - mean * mean, 0)) };
}

/** A rectangle of a grey image (clamped to the image), scaled to `width` pixels wide (bilinear). */
export function cropScale(
  img: GrayImage,
  box: { x: number; y: number; width: number; height: number },
  width: number,
): GrayImage {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(img.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(img.height, Math.ceil(box.y + box.height));
  const cw = Math.max(1, x1 - x0);
  const ch = Math.max(1, y1 - y0);
  const outW = Math.max(1, width);
  const outH = Math.max(1, Math.round((ch * outW) / cw));
  const out = new Uint8Array(outW * outH);
  for (let y = 0; y < outH; y++) {
    const sy = Math.min(ch - 1, ((y + 0.5) * ch) / outH - 0.5);
    const yA = Math.max(0, Math.floor(sy));
    const yB = Math.min(ch - 1, yA + 1);
    const fy = Math.max(0, sy - yA);
    for (let x = 0; x < outW; x++) {
      const sx = Math.min(cw - 1, ((x + 0.5) * cw) / outW - 0.5);
      const xA = Math.max(0, Math.floor(sx));
      const xB = Math.min(cw - 1, xA + 1);
      const fx = Math.max(0, sx - xA);
      const p = (yy: number, xx: number) => img.data[(y0 + yy) * img.width + x0 + xx]!;
      const top = p(yA, xA) * (1 - fx) + p(yA, xB) * fx;
      const bottom = p(yB, xA) * (1 - fx) + p(yB, xB) * fx;
      out[y * outW + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { width: outW, height: outH, data: out };
}

/**
 * Variance of the 4-neighbour Laplacian: high for crisp edges and texture, low for a blurred or
 * flat picture. Compare values only between images of the same size (see `cropScale`).
 */
export function laplacianVariance(img: GrayImage): number {
  const { width: w, height: h, data } = img;
  if (w < 3 || h < 3) return 0;
  let sum = 0;
  let sq = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const v = data[i - 1]! + data[i + 1]! + data[i - w]! + data[i + w]! - 4 * data[i]!;
      sum += v;
      sq += v * v;
      n++;
    }
  }
  const mean = sum / n;
  return sq / n - mean * mean;
}
