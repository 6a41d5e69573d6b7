// The database and Redis a load bench runs on (login.mjs, journey.mjs): psql, a fresh schema, the bench's own
// Redis keys, and a look for other sessions that would disturb the figures.
import { execFileSync } from 'node:child_process';
import { log } from './lib.mjs';

const psqlEnv = { ...process.env, PGOPTIONS: '--client-min-messages=warning' };

/** Runs one SQL statement with psql; its output (unaligned, tuples only). */
export function psql(url, sql) {
  return execFileSync('psql', [url, '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: psqlEnv,
  });
}

/**
 * Deletes the keys under `prefix` of the Redis at `redisUrl` (other users' keys stay). A pipeline, not a captured
 * list: a run leaves tens of thousands of keys.
 */
export function clearRedisKeys(prefix, redisUrl = 'redis://127.0.0.1:6379') {
  const url = new URL(redisUrl);
  const db = Number(url.pathname.slice(1) || 0);
  const cli = `redis-cli -h ${url.hostname} -p ${url.port || 6379} -n ${db}`;
  execFileSync(
    'sh',
    ['-c', `${cli} --scan --pattern '${prefix}*' | xargs -r -n 500 ${cli} del > /dev/null`],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/** The `postgres` database of the server of `pgUrl`, and the bench database's name (checked). */
function adminUrl(pgUrl) {
  const admin = new URL(pgUrl);
  const db = admin.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(db)) throw new Error(`unexpected database name ${db}`);
  admin.pathname = '/postgres';
  return { admin: admin.href, db };
}

/**
 * Makes `backend` ('pglite', 'postgres' or 'postgres+redis') ready for a run: the database created if missing
 * and its schema emptied (the server migrates at start), the bench's Redis keys deleted.
 */
export function prepareBackend(backend, { pgUrl, redisPrefix }) {
  if (backend === 'postgres' || backend === 'postgres+redis') {
    const { admin, db } = adminUrl(pgUrl);
    if (psql(admin, `select 1 from pg_database where datname = '${db}'`).trim() !== '1') {
      log(`creating database ${db}`);
      psql(admin, `create database ${db}`);
    }
    psql(pgUrl, 'drop schema public cascade; create schema public; drop schema if exists drizzle cascade;');
  }
  if (backend === 'postgres+redis') clearRedisKeys(redisPrefix);
}

/** Other sessions in the bench database (a neighbour would disturb the figures, or worse). */
export function otherPgSessions(pgUrl) {
  try {
    const { admin, db } = adminUrl(pgUrl);
    return psql(
      admin,
      `select pid || ' ' || coalesce(application_name, '') || ' ' || left(query, 60) from pg_stat_activity where datname = '${db}' and pid <> pg_backend_pid()`,
    )
      .split('\n')
      .filter(Boolean);
  } catch (err) {
    return [`(psql failed: ${err.message})`];
  }
}
