// Reads bench/server-gc.mjs' log: the answering thread's collections between two wall-clock times.
import { existsSync, readFileSync } from 'node:fs';

const KINDS = {
  1: 'scavenge',
  2: 'minorMarkSweep',
  4: 'markCompact',
  8: 'incrementalMarking',
  16: 'weakCallbacks',
};

/**
 * The collections of `file`'s lines stamped in [fromMs, toMs] (each line covers the 250 ms before its stamp):
 * per kind { count, totalMs, longestMs }, and the old generation's use at the first and last line (MB).
 */
export function gcBetween(file, fromMs, toMs) {
  if (!existsSync(file)) return null;
  const out = { kinds: {}, oldSpaceMb: null };
  const olds = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const [stamp, old, json] = line.split(' ');
    const t = Number(stamp);
    if (t < fromMs + 250 || t > toMs) continue;
    olds.push(Number(old));
    for (const [kind, [n, ms, longest]] of Object.entries(JSON.parse(json))) {
      const name = KINDS[kind] ?? `kind${kind}`;
      if (!out.kinds[name]) out.kinds[name] = { count: 0, totalMs: 0, longestMs: 0 };
      const k = out.kinds[name];
      k.count += n;
      k.totalMs = Math.round((k.totalMs + ms) * 10) / 10;
      k.longestMs = Math.max(k.longestMs, longest);
    }
  }
  if (olds.length)
    out.oldSpaceMb = { first: mb(olds[0]), last: mb(olds[olds.length - 1]), max: mb(Math.max(...olds)) };
  return out;
}

const mb = (b) => Math.round(b / 1e5) / 10;

/** One line for a run's log: `scavenge 107 × 202.5 ms (≤ 7.2), markCompact 0, old 78→98 MB`. */
export function gcLine(gc) {
  if (!gc) return 'no GC log';
  const parts = Object.entries(gc.kinds)
    .filter(([name]) => name === 'scavenge' || name === 'markCompact' || name === 'minorMarkSweep')
    .map(([name, k]) => `${name} ${k.count} × ${k.totalMs} ms (≤ ${k.longestMs})`);
  if (!gc.kinds.markCompact) parts.push('markCompact 0');
  if (gc.oldSpaceMb)
    parts.push(`old ${gc.oldSpaceMb.first}→${gc.oldSpaceMb.last} MB (max ${gc.oldSpaceMb.max})`);
  return parts.join(', ');
}
