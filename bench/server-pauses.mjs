// Preload for a bench's server (`node bench/hot-path.mjs --server-node-args="--import $PWD/bench/server-pauses.mjs"`):
// appends to $PAUSES_LOG (default /tmp/server-pauses.log) every GC pause of 5 ms or more and every stretch of
// 25 ms or more in which a thread's event loop did not turn (a 1-ms timer), each line tagged with the thread
// (0: the one that answers requests; others: the embedded database's, ADR 047) and its seconds since start:
//   t0 42.45 @1764431234567 loop 115.4 ms
//   t0 18.31 @1764431210421 gc kind 1 15.3 ms heap 74 MB        (kind 1: scavenge, 4: mark-compact, 8: incremental marking)
// It tells a server's own stops (GC, long turns) from the machine's (bench/hot-path.mjs' `stolen`).
import { appendFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { threadId } from 'node:worker_threads';

const file = process.env.PAUSES_LOG ?? '/tmp/server-pauses.log';
/** The shortest loop stop noted ($PAUSES_LOOP_MS, default 25). */
const LOOP_MS = Number(process.env.PAUSES_LOOP_MS ?? 25);
const t0 = performance.now();
// Seconds since start, and the wall clock in ms (to match bench/paced-loader.c's worstWindows).
const at = (ms) => `${((ms - t0) / 1000).toFixed(2)} @${Math.round(performance.timeOrigin + ms)}`;
const note = (line) => appendFileSync(file, `t${threadId} ${line}\n`);

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.duration < 5) continue;
    const heap = (process.memoryUsage().heapUsed / 1e6).toFixed(0);
    note(`${at(e.startTime)} gc kind ${e.detail?.kind} ${e.duration.toFixed(1)} ms heap ${heap} MB`);
  }
}).observe({ entryTypes: ['gc'] });

let last = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - last >= LOOP_MS) note(`${at(now)} loop ${(now - last).toFixed(1)} ms`);
  last = now;
}, 1).unref();
