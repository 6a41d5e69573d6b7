/**
 * The lead-delivery worker on its own (docs/matching-consent-delivery.md):
 *   npm run worker            — polls for due leads until SIGTERM / SIGINT
 *   npm run worker -- --drain — delivers what is due now, then exits
 * Run it next to API instances started with DELIVERY_WORKER=off, on PostgreSQL (DATABASE_URL): the
 * embedded database can be opened by one process only, so with it the API's inline worker is used.
 */
import { parseArgs } from 'node:util';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config/env.ts';
import { closeOpsServer, startOpsServer } from '../lib/ops-server.ts';

async function main() {
  const { values } = parseArgs({ options: { drain: { type: 'boolean', default: false } } });
  const config = { ...loadConfig(), DELIVERY_WORKER: 'off' as const };
  if (!config.DATABASE_URL) {
    console.error(
      'npm run worker needs DATABASE_URL (PostgreSQL): the embedded database belongs to the API process, ' +
        'whose inline worker delivers the leads.',
    );
    process.exit(2);
  }
  const app = await buildApp({ config, serveStatic: false });
  const worker = app.services.delivery;
  if (values.drain) {
    const n = await worker.drain();
    app.log.info({ attempted: n }, 'drained due leads');
    await app.close();
    return;
  }
  // Its own metrics listener (lead deliveries, queue depth, process): give it a port of its own
  // when API instances run on the same host.
  const ops =
    config.METRICS_PORT !== 0
      ? await startOpsServer(app, { host: config.METRICS_HOST, port: config.METRICS_PORT })
      : null;
  worker.start(config.DELIVERY_POLL_MS);
  app.log.info({ pollMs: config.DELIVERY_POLL_MS }, 'delivery worker started');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.draining = true;
    app.log.info({ signal }, 'delivery worker stopping');
    // Deliveries in flight finish, or their claims are given back: no lead stays locked.
    const released = await worker.stop(config.SHUTDOWN_TIMEOUT_MS);
    await app.close();
    if (ops) await closeOpsServer(ops);
    app.log.info({ released }, 'delivery worker stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
