import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';

const PROBE_TIMEOUT_MS = 2000;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export interface Readiness {
  ready: boolean;
  draining: boolean;
  db: 'ok' | 'down';
  redis: 'ok' | 'down' | 'not configured';
}

/** Ready: not draining, the database answers, and Redis answers when it is configured. */
export async function readiness(app: FastifyInstance): Promise<Readiness> {
  const draining = app.draining;
  const [db, redis] = await Promise.all([
    within(app.database.ping(), PROBE_TIMEOUT_MS).then(
      () => 'ok' as const,
      () => 'down' as const,
    ),
    app.redis
      ? within(app.redis.ping(), PROBE_TIMEOUT_MS).then(
          () => 'ok' as const,
          () => 'down' as const,
        )
      : Promise.resolve('not configured' as const),
  ]);
  return { ready: !draining && db === 'ok' && redis !== 'down', draining, db, redis };
}

/**
 * The internal listener (docs/operations.md): GET /metrics (Prometheus text), /livez (the process
 * answers) and /readyz (readiness above; 503 while draining). Opened by main.ts and the worker CLI
 * on METRICS_HOST:METRICS_PORT, never on the public port; adds the process metrics to the registry.
 */
export async function startOpsServer(
  app: FastifyInstance,
  opts: { host: string; port: number },
): Promise<Server> {
  const { metrics } = app;
  metrics.enableProcessMetrics();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'method not allowed' });
    if (path === '/livez') return json(200, { status: 'ok' });
    if (path === '/readyz') {
      readiness(app).then(
        (r) => json(r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', ...r }),
        () => json(503, { status: 'not ready' }),
      );
      return;
    }
    if (path === '/metrics') {
      metrics.registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
          res.end(text);
        },
        (err: Error) => {
          app.log.warn({ err: { message: err.message } }, 'metrics collection failed');
          json(500, { error: 'metrics collection failed' });
        },
      );
      return;
    }
    json(404, { error: 'not found', paths: ['/metrics', '/livez', '/readyz'] });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  app.log.info(
    { metrics: typeof address === 'object' && address ? `${address.address}:${address.port}` : address },
    'metrics, /livez and /readyz listening',
  );
  return server;
}

/** Closes the listener (open keep-alive connections included). */
export function closeOpsServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
