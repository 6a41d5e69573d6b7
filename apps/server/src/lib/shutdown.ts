import type { FastifyInstance } from 'fastify';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves `p`'s value, or `fallback` once `ms` have passed. */
async function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<T>((resolve) => {
        timer = setTimeout(() => resolve(fallback), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ShutdownOptions {
  signal: string;
  /** How long /readyz answers 503 before the listener closes (load balancers take the instance out). */
  delayMs: number;
  /** How long requests in flight (and the inline delivery worker) get after that. */
  timeoutMs: number;
}

/**
 * SIGTERM (docs/operations.md): /readyz answers 503 at once; after `delayMs` the listener stops
 * taking connections (idle keep-alive ones are closed, a request arriving on a busy one is answered
 * 503 and its connection closed); requests in flight finish; the inline worker finishes its
 * deliveries or gives their claims back (app.ts); then the database closes. Resolves true when all
 * of that ended within `timeoutMs`; else the connections left are cut, the worker's claims given
 * back, and it resolves false.
 */
export async function gracefulShutdown(app: FastifyInstance, opts: ShutdownOptions): Promise<boolean> {
  app.draining = true;
  app.log.info(
    { signal: opts.signal, delayMs: opts.delayMs },
    'shutting down: not ready any more; the listener closes after the delay',
  );
  if (opts.delayMs > 0) await sleep(opts.delayMs);
  app.log.info({ timeoutMs: opts.timeoutMs }, 'listener closing: finishing requests in flight');
  const closed = app.close().then(() => true);
  // A connection whose request ends now goes idle: close it then, not at the keep-alive timeout.
  const idle = setInterval(() => app.server.closeIdleConnections(), 100);
  closed.finally(() => clearInterval(idle)).catch(() => {});
  if (await within(closed, opts.timeoutMs, false)) {
    app.log.info('shut down cleanly');
    return true;
  }
  app.log.error({ timeoutMs: opts.timeoutMs }, 'shutdown took too long: cutting the connections left');
  app.server.closeAllConnections();
  await within(
    app.services.delivery.stop(0).then(() => undefined),
    2000,
    undefined,
  );
  await within(closed, 2000, false);
  return false;
}
