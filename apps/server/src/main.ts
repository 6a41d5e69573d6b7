import type { Server } from 'node:http';
import { buildApp } from './app.ts';
import { ConfigError, type Env, loadConfig } from './config/env.ts';
import { closeOpsServer, startOpsServer } from './lib/ops-server.ts';
import { gracefulShutdown } from './lib/shutdown.ts';

async function main() {
  let config: Env;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const app = await buildApp({ config });
  let ops: Server | null = null;
  if (config.METRICS_PORT !== 0) {
    try {
      ops = await startOpsServer(app, { host: config.METRICS_HOST, port: config.METRICS_PORT });
    } catch (err) {
      // In production a listener that cannot open is a configuration error; on a developer's machine
      // (benches and journeys start several servers) the API runs on without it.
      if (config.NODE_ENV === 'production') throw err;
      app.log.warn(
        { err: { message: (err as Error).message } },
        'metrics listener not opened (METRICS_PORT taken?): no /metrics, /livez, /readyz',
      );
    }
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    gracefulShutdown(app, {
      signal,
      delayMs: config.SHUTDOWN_DELAY_MS,
      timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    }).then(
      async (clean) => {
        if (ops) await closeOpsServer(ops);
        process.exit(clean ? 0 : 1);
      },
      (err) => {
        app.log.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled rejection'));

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('Failed to start:', err);
  }
  process.exit(1);
});
