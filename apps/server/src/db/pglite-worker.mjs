// The embedded PGlite on a thread of its own (ADR 047). Plain JavaScript so it runs the same under tsx,
// vitest and node (as providers/face/detector-worker.mjs). The API's thread talks to it through
// db/pglite-thread.ts; nothing else does.
//
// Protocol (every call carries an `id`, answered once by {id, ok: true, result} or {id, ok: false, error}):
//   {op: 'query', sql, params, rowMode, tx?}             one statement; in transaction `tx` when given
//   {op: 'begin'}                                        opens a transaction; result: its number
//   {op: 'end', tx, commit}                              commits (true) or rolls back (false) it
//   {op: 'close'}                                        closes the database (after what is running)
// The worker posts {ready: true} once the database is open, or {ready: false, error}.
//
// Every query keeps timestamps, dates and intervals as the text PostgreSQL sends: the parsers drizzle's
// PGlite session passes with each query (functions cannot cross threads, so they are fixed here, once, as
// the database's own).

import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';

const keepText = (value) => value;
const PARSERS = {
  [types.TIMESTAMP]: keepText,
  [types.TIMESTAMPTZ]: keepText,
  [types.INTERVAL]: keepText,
  [types.DATE]: keepText,
  1231: keepText, // numeric[]
  1115: keepText, // timestamp[]
  1185: keepText, // timestamptz[]
  1187: keepText, // interval[]
  1182: keepText, // date[]
};

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs runs as a worker thread');

/** A thrown value as plain data: message, name and the fields of PostgreSQL's error (code, detail, …). */
function plainError(err) {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error' };
  const out = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) {
    // queryOptions holds functions (parsers) and the COPY's Blob; params are the caller's own.
    if (key === 'queryOptions' || key === 'params') continue;
    if (value === undefined || typeof value === 'function') continue;
    out[key] = value;
  }
  return out;
}

let db;
try {
  // The parsers are the database's own, not each query's: PGlite merges a query's `parsers` into its ~300
  // defaults on every call, which cost ~110–170 µs a statement here (`select 1`: ~130 µs without, ~300 with).
  db = new PGlite({ ...(workerData?.dataDir ? { dataDir: workerData.dataDir } : {}), parsers: PARSERS });
  await db.waitReady;
  port.postMessage({ ready: true });
} catch (err) {
  port.postMessage({ ready: false, error: plainError(err) });
  process.exit(1);
}

/** Open transactions: their PGlite handle and how to end them. */
const open = new Map();
let nextTx = 1;
const ROLLBACK = Symbol('rollback');

function begin() {
  const tx = nextTx++;
  return new Promise((started, failed) => {
    let finish;
    const ended = new Promise((resolve, reject) => {
      finish = { resolve, reject };
    });
    const whole = db.transaction(async (handle) => {
      open.set(tx, { handle, finish, whole });
      started(tx);
      await ended;
    });
    // Until the callback ran, a failure is the BEGIN's own.
    whole.catch((err) => {
      if (!open.has(tx)) failed(err);
    });
  });
}

async function end(tx, commit) {
  const entry = open.get(tx);
  if (!entry) throw new Error('Transaction is closed');
  open.delete(tx);
  if (commit) entry.finish.resolve();
  else entry.finish.reject(ROLLBACK);
  try {
    await entry.whole;
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
  return null;
}

async function query(msg) {
  const options = { rowMode: msg.rowMode === 'array' ? 'array' : 'object' };
  let result;
  if (msg.tx !== undefined) {
    const entry = open.get(msg.tx);
    if (!entry) throw new Error('Transaction is closed');
    result = await entry.handle.query(msg.sql, msg.params ?? [], options);
  } else {
    result = await db.query(msg.sql, msg.params ?? [], options);
  }
  // A COPY … TO '/dev/blob' would answer a Blob; nothing here asks for one.
  const { blob: _blob, ...plain } = result;
  return plain;
}

async function handle(msg) {
  switch (msg.op) {
    case 'query':
      return query(msg);
    case 'begin':
      return begin();
    case 'end':
      return end(msg.tx, msg.commit === true);
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error(`unknown operation ${String(msg.op)}`);
  }
}

port.on('message', (msg) => {
  handle(msg).then(
    (result) => port.postMessage({ id: msg.id, ok: true, result }),
    (err) => port.postMessage({ id: msg.id, ok: false, error: plainError(err) }),
  );
});
