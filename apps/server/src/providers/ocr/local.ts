import { createRequire } from 'node:module';
import path from 'node:path';
import { checkIdCard } from '@lm/shared/validators/id-card';
import sharp from 'sharp';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { ImageDecodeError, MAX_INPUT_PIXELS } from '../../lib/image.ts';
import { findIdNumber, looksLikeCard, parseIdCardText } from './parse.ts';
import type { IdCardImage, IdCardOcrProvider, IdCardOcrResult } from './types.ts';

const require = createRequire(import.meta.url);

/**
 * Directory of `chi_sim.traineddata.gz` in the `@tesseract.js-data/chi_sim` package: the integer
 * "best" LSTM model (1.7 MB). Always a local path: tesseract.js would otherwise download from a CDN.
 */
export const CHI_SIM_DIR = path.join(
  path.dirname(require.resolve('@tesseract.js-data/chi_sim/package.json')),
  '4.0.0_best_int',
);

const DIGITS_ONLY = '0123456789X';

export class OcrEngineError extends Error {
  constructor(
    message: string,
    readonly reason: 'busy' | 'timeout' | 'failed',
  ) {
    super(message);
    this.name = 'OcrEngineError';
  }
}

export interface LocalOcrOptions {
  /** Longest wait for one reading, engine start included. */
  timeoutMs?: number;
  /** Readings in progress or waiting at most; past it callers are refused at once. */
  maxPending?: number;
}

/**
 * Offline OCR: Tesseract 5 compiled to WebAssembly (tesseract.js, Apache-2.0) with the Simplified
 * Chinese model shipped in an npm package, in a worker thread started on first use and kept warm.
 * The picture is straightened (EXIF), scaled to 1000–2000 px wide, turned grey and
 * contrast-stretched; the text is then parsed for the name and the number (`parse.ts`).
 * Nothing read is logged or stored.
 */
export class LocalIdCardOcrProvider implements IdCardOcrProvider {
  readonly name = 'local';
  private worker: Promise<Worker> | null = null;
  private lock: Promise<void> = Promise.resolve();
  private pending = 0;
  private readonly timeoutMs: number;
  private readonly maxPending: number;

  constructor(o: LocalOcrOptions = {}) {
    this.timeoutMs = o.timeoutMs ?? 30_000;
    this.maxPending = o.maxPending ?? 8;
  }

  async read(image: IdCardImage): Promise<IdCardOcrResult> {
    if (this.pending >= this.maxPending) throw new OcrEngineError('too many readings waiting', 'busy');
    this.pending++;
    try {
      const started = performance.now();
      const prepared = await prepare(image.body);
      const prepMs = performance.now() - started;
      const { name, idNumber, confidence, passes } = await this.exclusive(async () => {
        const first = await this.recognize(prepared);
        const parsed = parseIdCardText(first.text);
        if ((parsed.idNumber && checkIdCard(parsed.idNumber) === null) || !looksLikeCard(first.text)) {
          return { ...parsed, confidence: first.confidence, passes: 1 };
        }
        // A card without a valid number: read again with digits and X only (the labels no longer compete).
        const digits = await this.recognize(prepared, DIGITS_ONLY);
        const again = findIdNumber(digits.text);
        const idNumber = again && (checkIdCard(again) === null || !parsed.idNumber) ? again : parsed.idNumber;
        return { name: parsed.name, idNumber, confidence: first.confidence, passes: 2 };
      });
      return {
        name,
        idNumber,
        method: 'local-ocr',
        outcome: 'read',
        details: {
          engine: 'tesseract.js chi_sim',
          prepMs: Math.round(prepMs),
          ms: Math.round(performance.now() - started),
          confidence: Math.round(confidence),
          passes,
        },
      };
    } finally {
      this.pending--;
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.then((w) => w.terminate()).catch(() => {});
  }

  private start(): Promise<Worker> {
    this.worker ??= createWorker('chi_sim', OEM.LSTM_ONLY, {
      langPath: CHI_SIM_DIR,
      gzip: true,
      // Never read or write a cache file (the default writes chi_sim.traineddata into the cwd).
      cacheMethod: 'none',
    }).catch((err: unknown) => {
      this.worker = null;
      throw new OcrEngineError(`engine did not start: ${String((err as Error)?.message ?? err)}`, 'failed');
    });
    return this.worker;
  }

  /** One reading at a time: a second pass changes the worker's parameters. */
  private exclusive<T>(job: () => Promise<T>): Promise<T> {
    const run = this.lock.then(job, job);
    this.lock = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async recognize(png: Buffer, whitelist = ''): Promise<{ text: string; confidence: number }> {
    const worker = await this.start();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new OcrEngineError(`no answer within ${this.timeoutMs} ms`, 'timeout')),
        this.timeoutMs,
      );
    });
    try {
      const read = async () => {
        await worker.setParameters({ tessedit_char_whitelist: whitelist });
        return worker.recognize(png);
      };
      const result = await Promise.race([read(), timeout]);
      return { text: result.data.text ?? '', confidence: result.data.confidence ?? 0 };
    } catch (err) {
      // A reading cannot be cancelled: drop the worker so the next call starts a fresh one.
      if (err instanceof OcrEngineError && err.reason === 'timeout') await this.close();
      if (err instanceof OcrEngineError) throw err;
      throw new OcrEngineError(String((err as Error)?.message ?? err), 'failed');
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Upright, 1000–2000 px wide, grey, contrast stretched, as PNG. Throws ImageDecodeError. */
export async function prepare(body: Buffer): Promise<Buffer> {
  try {
    const upright = sharp(body, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    const meta = await sharp(body, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!meta.width || !meta.height) throw new ImageDecodeError('no dimensions');
    const width = (meta.orientation ?? 1) >= 5 ? meta.height : meta.width;
    const target = Math.min(Math.max(width, 1000), 2000);
    return await upright
      .resize({ width: target, height: 2000, fit: 'inside' })
      .greyscale()
      .normalise()
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch (err) {
    if (err instanceof ImageDecodeError) throw err;
    throw new ImageDecodeError((err as Error).message);
  }
}
