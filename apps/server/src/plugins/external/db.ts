import fp from 'fastify-plugin';
import { type Database, openDatabase } from '../../db/client.ts';

export interface DbPluginOptions {
  /** An already-open database (tests share one between two app instances). Not closed with the app. */
  database?: Database | undefined;
  schemaName?: string | undefined;
}

export default fp<DbPluginOptions>(
  async (app, opts) => {
    const { config } = app;
    const owned = !opts.database;
    const database =
      opts.database ??
      (await openDatabase({
        url: config.DATABASE_URL,
        dataDir: config.DATA_DIR === ':memory:' ? undefined : config.DATA_DIR,
        schemaName: opts.schemaName,
        poolSize: config.DATABASE_POOL_SIZE,
        onPoolError: (err) => app.log.warn({ err: { message: err.message } }, 'database connection lost'),
        onRecovered: () => app.log.warn('embedded database serving again on a new thread'),
      }));
    app.decorate('database', database);
    app.log.info({ database: database.kind }, 'database ready');
    if (owned) app.addHook('onClose', async () => database.close());
  },
  { name: 'db' },
);
