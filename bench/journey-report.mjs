// The tables journey.mjs prints: a run per backend and --ramp's levels, open loop and CPU per journey.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STEPS } from './journey-steps.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------
// output

export function table(head, body, leftCols = 1) {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const fmt = (cells) =>
    cells.map((c, i) => (i < leftCols ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(fmt)].join('\n');
}

export const f = (v) => (v === null || v === undefined ? '-' : String(v));

export function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** --ramp: the closed-loop levels, the open loop at `loadFactor` × saturation, and the ceiling. */
export function printRamp(ramped, ceiling, { duration, instances, loadFactor, p99GoalMs }) {
  const stepP = (x, k) => `${f(x.stepMs[k].p50)}/${f(x.stepMs[k].p95)}/${f(x.stepMs[k].p99)}`;
  console.log(
    `\njourney bench, rising concurrency: ${os.cpus().length} cpus, node ${process.version}, ${duration} s per level, ${instances} API instance(s)\n`,
  );
  console.log(
    table(
      [
        'backend',
        'conns',
        'journeys/s',
        'req/s',
        'journey p50',
        'p99',
        'errors',
        'busy',
        ...STEPS.map((k) => `${k} p50/95/99`),
      ],
      ramped.flatMap((b) =>
        b.ramp.map((x) => [
          b.backend,
          f(x.connections),
          x.journeysPerSec.toFixed(1),
          f(x.requestsPerSec),
          f(x.journeyMs.p50),
          f(x.journeyMs.p99),
          f(x.errors),
          `${x.cpuSeconds.busyPercent}%`,
          ...STEPS.map((k) => stepP(x, k)),
        ]),
      ),
      1,
    ),
  );
  console.log(
    `\nopen loop at ${loadFactor} × saturation (journeys start at a fixed rate; latency per call p50/p95/p99 ms; goal: 0 errors, every p99 < ${p99GoalMs} ms):\n`,
  );
  console.log(
    table(
      ['backend', 'saturation', 'rate', 'achieved', 'in flight', 'errors', ...STEPS, 'goal'],
      ramped.map((b) => [
        b.backend,
        `${b.saturation.journeysPerSec} @${b.saturation.connections}`,
        f(b.openLoop.targetRate),
        f(b.openLoop.journeysPerSec),
        f(b.openLoop.maxInFlight),
        f(b.openLoop.errors),
        ...STEPS.map((k) => stepP(b.openLoop, k)),
        b.openLoop.goal.met
          ? 'met'
          : `MISSED (worst p99 ${b.openLoop.goal.worstStepP99Ms} ms${b.openLoop.lateStarts ? `, ${b.openLoop.lateStarts} late starts` : ''})`,
      ]),
    ),
  );
  console.log(
    '\nCPU ms per journey in the open loop: this script, the API server(s), PostgreSQL, Redis, other:\n',
  );
  console.log(
    table(
      ['backend', 'client', 'server', 'postgres', 'redis', 'other', 'machine busy'],
      ramped.map((b) => [
        b.backend,
        f(b.openLoop.cpuMsPerJourney.client),
        f(b.openLoop.cpuMsPerJourney.server),
        f(b.openLoop.cpuMsPerJourney.postgres),
        f(b.openLoop.cpuMsPerJourney.redis),
        f(b.openLoop.cpuMsPerJourney.other),
        `${b.openLoop.cpuSeconds.busyPercent}%`,
      ]),
    ),
  );
  if (ceiling?.journeyMs) {
    console.log(
      `\nceiling: the same five requests against bare Fastify (hello-world), ${ceiling.connections} connections: ${ceiling.journeysPerSec} journeys/s, ${ceiling.requestsPerSec} req/s, journey p50 ${ceiling.journeyMs.p50} ms, p99 ${ceiling.journeyMs.p99} ms`,
    );
  }
}
