import { Worker } from 'node:worker_threads';

/** What drizzle's PGlite session calls: one statement, answered as PGlite answers it. */
export interface ThreadQueryOptions {
  rowMode?: 'array' | 'object';
  /** Ignored: the thread keeps drizzle's parsers for every query (functions cannot cross threads). */
  parsers?: unknown;
}

export interface ThreadResults<T = unknown> {
  rows: T[];
  affectedRows?: number;
  fields: { name: string; dataTypeID: number }[];
}

export interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: ThreadQueryOptions): Promise<ThreadResults<T>>;
}

type Answer = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: PlainError };
type Ready = { ready: true } | { ready: false; error: PlainError };
interface PlainError {
  message: string;
  name: string;
  [key: string]: unknown;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** The error the API's thread throws for one the database's thread answered: PostgreSQL's fields kept. */
function rebuild(plain: PlainError): Error {
  const { message, name, ...fields } = plain;
  const err = new Error(message);
  Object.assign(err, fields);
  if (name && name !== 'Error') err.name = name;
  return err;
}

/** Starts a database thread and waits until its database is open. */
async function startWorker(dataDir: string | undefined): Promise<Worker> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) =>
        reject(new Error(`the database thread stopped at start (exit code ${code})`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.once('message', (msg: Ready) => {
        worker.off('error', reject);
        worker.off('exit', onExit);
        if (msg.ready) resolve();
        else reject(rebuild(msg.error));
      });
    });
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  return worker;
}

/** A thread that ran this long before it stopped starts again at once; one that stops sooner waits longer each time. */
const STABLE_MS = 60_000;
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 30_000;

export interface PGliteThreadOptions {
  /** Told when the thread stopped (and, on disk, that it is being started again). */
  onStopped?: (err: Error) => void;
  /** Told when a stopped thread is serving again. */
  onRestarted?: () => void;
}

/**
 * The embedded PGlite on a worker thread of its own (ADR 047): its statements (WebAssembly, up to tens of
 * ms for a report or a large COPY) no longer hold up the event loop that answers visitors. This object is
 * the client drizzle's PGlite driver uses (`query` and `transaction`).
 *
 * The thread keeps the process alive only while a statement or a transaction is under way, as the
 * database in this thread did. If the thread stops (killed, or PGlite aborted), every call in flight fails
 * with "PGlite is closed", which the app answers as "database unavailable" (503); a database on disk is then
 * opened again on a new thread (PGlite recovers what was committed, as after a crash of the process), 0.5 s
 * later and up to 30 s later when it keeps stopping, and calls meanwhile fail the same way. An in-memory
 * database is gone with its thread: it stays stopped.
 */
export class PGliteThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private openTransactions = 0;
  private stopped: Error | null = null;
  private closing: Promise<void> | null = null;
  private startedAt = Date.now();
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | undefined;

  private constructor(
    private worker: Worker,
    private readonly dataDir: string | undefined,
    private readonly opts: PGliteThreadOptions,
  ) {}

  /** Starts the thread and opens the database in `dataDir` (in memory without one). */
  static async open(dataDir?: string, opts: PGliteThreadOptions = {}): Promise<PGliteThread> {
    const thread = new PGliteThread(await startWorker(dataDir), dataDir, opts);
    thread.listen(thread.worker);
    return thread;
  }

  private listen(worker: Worker): void {
    worker.unref();
    worker.on('message', (msg: Answer) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      this.refresh();
      if (msg.ok) p.resolve(msg.result);
      else p.reject(rebuild(msg.error));
    });
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', (code) => this.lost(worker, new Error(`exit code ${code}`)));
  }

  /** Ref'd while something waits for the thread, so a pending statement keeps the process alive. */
  private refresh(): void {
    if (this.pending.size > 0 || this.openTransactions > 0) this.worker.ref();
    else this.worker.unref();
  }

  private lost(worker: Worker, cause: Error): void {
    if (worker !== this.worker || this.stopped) return;
    this.stopped = new Error(`PGlite is closed (the database thread stopped: ${cause.message})`);
    for (const p of this.pending.values()) p.reject(this.stopped);
    this.pending.clear();
    if (this.closing) return;
    this.opts.onStopped?.(this.stopped);
    if (this.dataDir === undefined) return;
    if (Date.now() - this.startedAt >= STABLE_MS) this.restarts = 0;
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const delay = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** this.restarts);
    this.restarts++;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      startWorker(this.dataDir).then(
        (worker) => {
          if (this.closing) {
            void worker.terminate();
            return;
          }
          this.worker = worker;
          this.listen(worker);
          this.startedAt = Date.now();
          this.stopped = null;
          this.opts.onRestarted?.();
        },
        (err: Error) => {
          if (this.closing) return;
          this.opts.onStopped?.(err);
          this.scheduleRestart();
        },
      );
    }, delay);
    this.restartTimer.unref();
  }

  private call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    if (this.closing && message.op !== 'close') return Promise.reject(new Error('PGlite is closed'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.refresh();
      this.worker.postMessage({ ...message, id });
    });
  }

  query<T>(sql: string, params: unknown[] = [], options: ThreadQueryOptions = {}): Promise<ThreadResults<T>> {
    return this.call({ op: 'query', sql, params, rowMode: options.rowMode ?? 'object' });
  }

  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws (the error is
   * passed on). Statements outside it wait until it ends, as in PGlite itself.
   */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = await this.call<number>({ op: 'begin' });
    // A transaction belongs to the thread that began it: after a restart its number means nothing (or
    // another transaction) to the new thread.
    const owner = this.worker;
    const inTx = <R>(message: Record<string, unknown>): Promise<R> =>
      this.worker === owner
        ? this.call<R>(message)
        : Promise.reject(new Error('PGlite is closed (the database thread stopped during the transaction)'));
    this.openTransactions++;
    let ended = false;
    const handle: ThreadTransaction = {
      query: <R>(sql: string, params: unknown[] = [], options: ThreadQueryOptions = {}) => {
        if (ended) return Promise.reject(new Error('Transaction is closed'));
        return inTx<ThreadResults<R>>({
          op: 'query',
          sql,
          params,
          rowMode: options.rowMode ?? 'object',
          tx,
        });
      },
    };
    try {
      let result: T;
      try {
        result = await fn(handle);
      } catch (err) {
        ended = true;
        await inTx({ op: 'end', tx, commit: false }).catch(() => {});
        throw err;
      }
      ended = true;
      await inTx({ op: 'end', tx, commit: true });
      return result;
    } finally {
      this.openTransactions--;
      this.refresh();
    }
  }

  /** Closes the database (after the statements under way) and stops the thread. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.restartTimer);
      try {
        if (!this.stopped) await this.call({ op: 'close' });
      } finally {
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }

  /** Stops the thread at once, as a crash would (tests; a database on disk is opened again). */
  async kill(): Promise<void> {
    await this.worker.terminate();
  }

  /** Whether the thread is serving (false while stopped or starting again). */
  get serving(): boolean {
    return this.stopped === null && this.closing === null;
  }
}
