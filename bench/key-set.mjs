#!/usr/bin/env node
// What adding a new visitor's click key costs the event loop as the day's key set of one channel grows
// (apps/server/src/modules/channels/key-set.ts, ADR 033): the longest single add in each stretch between
// powers of two (where the table doubles), and the mean. A table that moved all its keys at once when it
// doubled stopped the loop for that long, on one visitor's click.
//
//   node bench/key-set.mjs [--keys 2100000] [--server-root checkout]
//
// --server-root: another checkout's key set (before/after on the same machine, one after the other).

import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: { keys: { type: 'string', default: '2100000' }, 'server-root': { type: 'string' } },
});
const KEYS = Number(args.keys);
if (!Number.isInteger(KEYS) || KEYS < 1) throw new Error('--keys: a positive integer');
register();
const root = args['server-root'] ? path.resolve(args['server-root']) : ROOT;
const { ClickKeySet } = await import(
  pathToFileURL(path.join(root, 'apps/server/src/modules/channels/key-set.ts')).href
);

// Device hashes as blindIndex writes them, made before the clock runs.
const hashes = Array.from({ length: KEYS }, () => randomBytes(32).toString('base64url').slice(0, 43));
const set = new ClickKeySet();
console.log(`key set of ${root}: ${KEYS} new keys in one channel, node ${process.version}`);
console.log('keys up to   longest add ms   mean µs');
let from = 0;
let longest = 0;
let started = performance.now();
for (let i = 0; i < KEYS; i++) {
  const t = performance.now();
  set.add('demo', hashes[i]);
  longest = Math.max(longest, performance.now() - t);
  const n = i + 1;
  if ((n & (n - 1)) === 0 || n === KEYS) {
    if (n >= 1024) {
      const mean = ((performance.now() - started) / (n - from)) * 1000;
      console.log(
        `${String(n).padStart(12)}   ${longest.toFixed(2).padStart(14)}   ${mean.toFixed(2).padStart(7)}`,
      );
    }
    from = n;
    longest = 0;
    started = performance.now();
  }
}
