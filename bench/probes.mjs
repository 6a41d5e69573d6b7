// Probes of a load run (journey.mjs): CPU accounting from /proc, PostgreSQL's view of the server's backends, and
// a summary of the server's --cpu-prof profile over the measured window.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTimes, sleep } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc: who used the two cores during the run

const CLK_TCK = 100; // USER_HZ: 100 on Linux x86/arm
/** [utime + stime, cutime + cstime, stime] of a process in clock ticks, or null when it is gone. */
function procTicks(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may contain spaces) start at the last ')'.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // f[0] is field 3 (state): utime is field 14 → f[11].
    return [Number(f[11]) + Number(f[12]), Number(f[13]) + Number(f[14]), Number(f[12])];
  } catch {
    return null;
  }
}

function procComm(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * CPU ticks by group right now. PostgreSQL: every `postgres` process plus the reaped children
 * counted in the postmaster's cutime (backends that exited during the run); likewise Redis.
 */
export function cpuSnapshot(serverPids) {
  const pids = Array.isArray(serverPids) ? serverPids : [serverPids];
  const groups = { server: 0, serverSystem: 0, postgres: 0, redis: 0 };
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const comm = procComm(name);
    const group = comm === 'postgres' ? 'postgres' : comm?.startsWith('redis-server') ? 'redis' : null;
    if (!group) continue;
    const t = procTicks(name);
    if (!t) continue;
    groups[group] += t[0];
    // Reaped children's time shows up in the parent's cutime: count it once, at the parent.
    groups[group] += t[1];
  }
  for (const pid of pids) {
    const s = procTicks(pid);
    if (s) {
      groups.server += s[0] + s[1];
      groups.serverSystem += s[2];
    }
  }
  const u = process.cpuUsage();
  const machine = cpuTimes();
  return { ...groups, client: (u.user + u.system) / 1e6, machine };
}

/** CPU seconds by group between two snapshots, and the machine's busy share. */
export function cpuDelta(a, b) {
  const ticks = (k) => (b[k] - a[k]) / CLK_TCK;
  const totalTicks = b.machine.total - a.machine.total;
  const busyTicks = totalTicks - (b.machine.idle - a.machine.idle);
  const busy = busyTicks / CLK_TCK;
  const out = {
    client: b.client - a.client,
    server: ticks('server'),
    // Kernel time of the server (socket writes and reads to PostgreSQL and to the clients).
    serverSystem: ticks('serverSystem'),
    postgres: ticks('postgres'),
    redis: ticks('redis'),
    machineBusy: busy,
    machineCapacity: totalTicks / CLK_TCK,
  };
  out.other = Math.max(0, busy - out.client - out.server - out.postgres - out.redis);
  out.busyPercent = Math.round((busy / out.machineCapacity) * 100);
  for (const k of Object.keys(out)) out[k] = Math.round(out[k] * 100) / 100;
  return out;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL's view: what the server's backends are doing (sampled from pg_stat_activity)

/**
 * Samples the bench database's client backends every 100 ms over the run: running a statement,
 * waiting on a lock, on WAL I/O, or idle in a transaction (waiting for the API server's next
 * statement). Returns a stopper that gives the mean number of backends in each state.
 */
export async function startPgSampler(pgUrl) {
  const pgDb = new URL(pgUrl).pathname.slice(1);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: pgUrl, application_name: 'lm-bench-journey-sampler' });
  await client.connect();
  const counts = {};
  const byQuery = {};
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const r = await client.query(
        `select state, wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as query
           from pg_stat_activity
          where datname = $1 and pid <> pg_backend_pid() and backend_type = 'client backend'`,
        [pgDb],
      );
      samples++;
      for (const row of r.rows) {
        let key;
        if (row.state === 'active') {
          key = row.wait_event
            ? `active, waiting: ${row.wait_event_type}/${row.wait_event}`
            : 'active: running';
        } else if (row.state === 'idle in transaction') {
          key = 'idle in transaction (waiting for the API server)';
        } else {
          key = row.state ?? 'unknown';
        }
        counts[key] = (counts[key] ?? 0) + 1;
        // By statement too (for idle in transaction: the last one it ran).
        if (row.state !== 'idle') {
          const q = `${key} | ${row.query}`;
          byQuery[q] = (byQuery[q] ?? 0) + 1;
        }
      }
      await sleep(100);
    }
  })();
  return async () => {
    stopped = true;
    await loop.catch(() => {});
    await client.end().catch(() => {});
    const mean = {};
    for (const [k, n] of Object.entries(counts).sort((a, b) => b[1] - a[1])) {
      mean[k] = Math.round((n / Math.max(samples, 1)) * 100) / 100;
    }
    const byStatement = {};
    for (const [k, n] of Object.entries(byQuery)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)) {
      byStatement[k] = Math.round((n / Math.max(samples, 1)) * 100) / 100;
    }
    return { samples, meanBackends: mean, byStatement };
  };
}

// ---------------------------------------------------------------------------------------------
// --cpu-prof: where the server's JS thread spent its time

/** Package (or area) of a profile frame's script. */
function frameArea(url, functionName) {
  if (!url) {
    if (functionName === '(garbage collector)') return '(gc)';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return '(program: native, not attributed)';
    return `(${functionName || 'native'})`;
  }
  if (url.startsWith('node:')) return 'node: internals';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const m = /\/(apps\/[^/]+|packages\/[^/]+)\/(.*)$/.exec(url);
  if (m) return `${m[1]}/${m[2].split('/').slice(0, -1).join('/') || '.'}`;
  return url;
}

/** Microseconds on the monotonic clock, the clock of V8's profile timestamps. */
export const monoUs = () => Number(process.hrtime.bigint() / 1000n);

function frameLabel(callFrame) {
  const { url, functionName, lineNumber } = callFrame;
  if (!url) return functionName || '(anonymous)';
  const file = url.replace(/^.*node_modules\//, '').replace(`file://${ROOT}/`, '');
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
}

/**
 * Summary of a .cpuprofile over the samples taken within `window` ({startUs, endUs}, monotonic):
 * self time by area (package) and by function, and inclusive time of the app's own functions
 * (apps/, packages/: a frame counts once per sample however deep it recurs). Percentages are of
 * the non-idle samples.
 */
export function summarizeProfile(file, window) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  let t = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    t += prof.timeDeltas[i] ?? 0;
    if (window && (t < window.startUs || t > window.endUs)) continue;
    // The delta before sample i+1 is the time sample i stood for.
    const us = prof.timeDeltas[i + 1] ?? 0;
    self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + us);
  }
  const areas = {};
  const fns = {};
  const inclusive = {};
  let busy = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (n.callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const area = frameArea(n.callFrame.url, n.callFrame.functionName);
    areas[area] = (areas[area] ?? 0) + us;
    const fn = frameLabel(n.callFrame);
    fns[fn] = (fns[fn] ?? 0) + us;
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur).callFrame;
      if (!/\/(apps|packages)\//.test(cf.url) || cf.url.includes('node_modules')) continue;
      const label = frameLabel(cf);
      if (seen.has(label)) continue;
      seen.add(label);
      inclusive[label] = (inclusive[label] ?? 0) + us;
    }
  }
  const top = (o, n) =>
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => ({
        what: k,
        ms: Math.round(us / 1000),
        percent: Math.round((us / busy) * 1000) / 10,
      }));
  return {
    file: path.relative(ROOT, file),
    window: window ? 'measured run only' : 'whole process',
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round(idle / 1000),
    areas: top(areas, 25),
    selfFunctions: top(fns, 40),
    appInclusive: top(inclusive, 40),
  };
}
