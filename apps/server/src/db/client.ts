import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { SERVER_ROOT } from '../lib/server-root.ts';
import { PGliteThread } from './pglite-thread.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** apps/server/drizzle, from the sources and from the build alike (ADR 064). */
export const MIGRATIONS_FOLDER = join(SERVER_ROOT, 'drizzle');

export interface DatabaseOptions {
  /** postgres:// URL; without it an embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory; without it (and without url) the database lives in memory. */
  dataDir?: string | undefined;
  /** PostgreSQL schema to work in (tests isolate themselves this way). */
  schemaName?: string | undefined;
  poolSize?: number;
  /** A connection (PostgreSQL) or the embedded database's thread (PGlite) was lost. */
  onPoolError?: (err: Error) => void;
  /** The embedded database's thread, lost, serves again (ADR 047). */
  onRecovered?: () => void;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const schemaName = opts.schemaName;
    if (schemaName && !/^[a-z_][a-z0-9_]*$/.test(schemaName)) throw new Error('Invalid schema name');
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      application_name: schemaName ?? 'loan-market-api',
      // Every connection works inside the schema; the migrations journal lives there too.
      ...(schemaName ? { options: `-c search_path=${schemaName}` } : {}),
    });
    // An idle client that loses its server (restart, network) emits here; without a listener the
    // process would crash. Requests in flight fail with an error the error handler turns into 503.
    pool.on('error', (err) => opts.onPoolError?.(err));
    // A client checked out for a transaction emits 'error' too when its server goes away; without a
    // listener of its own that would be an uncaught exception. The query itself still rejects.
    pool.on('connect', (client) => {
      client.on('error', (err) => opts.onPoolError?.(err));
    });
    const db = drizzlePg(pool, { schema });
    // drizzle's Pool transaction leaks the client when BEGIN itself fails (connection killed between
    // checkout and BEGIN): pool.end() then waits forever. Run transactions on a client we check out
    // and always release — destroying it when its connection broke.
    // One drizzle instance per pooled client: building one walks the whole schema (≈0.2 ms).
    const perClient = new WeakMap<pg.PoolClient, NodePgDatabase<typeof schema>>();
    db.transaction = async (fn, config) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        let clientDb = perClient.get(client);
        if (!clientDb) {
          clientDb = drizzlePg(client, { schema });
          perClient.set(client, clientDb);
        }
        return await clientDb.transaction(fn, config);
      } catch (err) {
        if (isConnectionError(err)) broken = err as Error;
        throw err;
      } finally {
        client.release(broken);
      }
    };
    if (schemaName) await pool.query(`create schema if not exists ${schemaName}`);
    await migratePg(drizzlePg(pool, { schema }), {
      migrationsFolder: MIGRATIONS_FOLDER,
      migrationsSchema: schemaName ?? 'drizzle',
    });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      ping: async () => {
        await pool.query('select 1');
      },
      close: once(() => pool.end()),
    };
  }

  // The embedded database runs on a thread of its own (ADR 047): its statements do not hold up the
  // event loop that answers visitors.
  let dir: string | undefined;
  if (opts.dataDir) {
    dir = join(opts.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
  }
  const client = await PGliteThread.open(dir, {
    ...(opts.onPoolError ? { onStopped: opts.onPoolError } : {}),
    ...(opts.onRecovered ? { onRestarted: opts.onRecovered } : {}),
  });
  try {
    const pgl = drizzlePglite({ client: client as unknown as PGlite, schema });
    await migratePglite(pgl, { migrationsFolder: MIGRATIONS_FOLDER });
    const db = pgl as unknown as Db;
    return {
      db,
      kind: 'pglite',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: once(() => client.close()),
    };
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= fn();
    return done;
  };
}

/** Rows of a raw `db.execute` on either driver. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Errors that mean "the database is unreachable right now" rather than a bug. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
]);

export function isConnectionError(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
    if (
      typeof e.message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED|PGlite is closed|Cannot use a pool after calling end/i.test(
        e.message,
      )
    ) {
      return true;
    }
    current = e.cause;
  }
  return false;
}
