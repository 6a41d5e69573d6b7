import { Worker } from 'node:worker_threads';

/** A face found by the detector, in pixels of the image it was given. */
export interface DetectedFace {
  /** Detector confidence, 0–1. */
  score: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RgbImage {
  width: number;
  height: number;
  /** width × height × 3 bytes, row by row. */
  data: Uint8Array;
}

export class FaceDetectorError extends Error {
  constructor(
    message: string,
    readonly reason: 'busy' | 'timeout' | 'failed' | 'closed',
  ) {
    super(message);
    this.name = 'FaceDetectorError';
  }
}

export interface FaceDetectorOptions {
  /** Faces below this confidence are not reported. */
  minConfidence?: number;
  /** Longest wait for one detection, the first one (model load) included. */
  timeoutMs?: number;
  /** Detections waiting at most; past it callers are refused at once (`busy`). */
  maxPending?: number;
}

interface Pending {
  resolve(faces: DetectedFace[]): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

type WorkerAnswer =
  | { id: number; ok: true; faces: DetectedFace[] }
  | { id: number; ok: false; error: string };

/**
 * SSD MobileNet v1 face detection (face-api weights, TensorFlow.js wasm) in one worker thread,
 * started on first use and kept warm; detections queue in the worker, one at a time.
 */
export class FaceDetector {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private readonly minConfidence: number;
  private readonly timeoutMs: number;
  private readonly maxPending: number;

  constructor(o: FaceDetectorOptions = {}) {
    this.minConfidence = o.minConfidence ?? 0.5;
    this.timeoutMs = o.timeoutMs ?? 30_000;
    this.maxPending = o.maxPending ?? 16;
  }

  detect(image: RgbImage): Promise<DetectedFace[]> {
    if (this.closed) return Promise.reject(new FaceDetectorError('detector closed', 'closed'));
    if (this.pending.size >= this.maxPending) {
      return Promise.reject(new FaceDetectorError('too many detections waiting', 'busy'));
    }
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<DetectedFace[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new FaceDetectorError(`no answer within ${this.timeoutMs} ms`, 'timeout'));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      const data = new Uint8Array(image.data); // a copy the worker may own
      worker.postMessage({ id, width: image.width, height: image.height, data }, [data.buffer]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.failAll(new FaceDetectorError('detector closed', 'closed'));
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./detector-worker.mjs', import.meta.url), {
      workerData: { minConfidence: this.minConfidence },
    });
    worker.unref();
    worker.on('message', (answer: WorkerAnswer) => {
      const p = this.pending.get(answer.id);
      if (!p) return;
      this.pending.delete(answer.id);
      clearTimeout(p.timer);
      if (answer.ok) p.resolve(answer.faces);
      else p.reject(new FaceDetectorError(answer.error, 'failed'));
    });
    const lost = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(new FaceDetectorError(`detector stopped: ${err.message}`, 'failed'));
    };
    worker.on('error', lost);
    worker.on('exit', (code) => {
      if (!this.closed) lost(new Error(`exit code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error) {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
      this.pending.delete(id);
    }
  }
}
