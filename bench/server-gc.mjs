// Preload for a bench's server (`node bench/hot-path.mjs --gc`, or `--server-node-args="--import
// $PWD/bench/server-gc.mjs"` with SERVER_GC_LOG set): every 250 ms the answering thread (thread 0) appends to
// $SERVER_GC_LOG (default /tmp/server-gc.log) one line: the wall clock in ms, the old generation's use in bytes
// and the collections since the last line by kind (1: scavenge, 2: minor mark-sweep, 4: mark-compact, 8:
// incremental marking, 16: weak callbacks), each as [count, total ms, longest ms]:
//   1764431234567 81234567 {"1":[12,25.3,3.1],"4":[1,6.2,6.2]}
// `gcBetween` (bench/gc-log.mjs) sums a run's lines. Unlike bench/server-pauses.mjs it notes every collection,
// however short: what a change to the hot path's garbage is judged by (ADR 050, 051).
import { appendFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { threadId } from 'node:worker_threads';

if (threadId === 0) {
  const file = process.env.SERVER_GC_LOG ?? '/tmp/server-gc.log';
  let sums = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = e.detail?.kind ?? 0;
      if (!sums[kind]) sums[kind] = [0, 0, 0];
      const s = sums[kind];
      s[0]++;
      s[1] += e.duration;
      s[2] = Math.max(s[2], e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  const oldSpace = () =>
    v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;
  setInterval(() => {
    for (const s of Object.values(sums)) {
      s[1] = Math.round(s[1] * 100) / 100;
      s[2] = Math.round(s[2] * 100) / 100;
    }
    appendFileSync(file, `${Date.now()} ${oldSpace()} ${JSON.stringify(sums)}\n`);
    sums = {};
  }, 250).unref();
}
