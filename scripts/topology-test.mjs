#!/usr/bin/env node
// Topology test (issue 19.3), run by .ci/run: Debian's nginx with deploy/nginx.conf (unchanged, its
// per-site settings generated beside a copy of it) over TLS (a self-signed certificate made here
// with openssl) in front of two API instances and one delivery worker, on PostgreSQL + Redis, all on
// this machine. The instances, the worker and admin:create run the built server (`node dist/main.js` …
// in apps/server, as the systemd units do, ADR 064), built first by apps/server/scripts/build.mjs. See
// docs/operations.md, "The topology test".
//
//   node scripts/topology-test.mjs [--duration 20] [--connections 10] [--nginx-t] [--cache-rules]
//
// --nginx-t: only `nginx -t` on deploy/nginx.conf with generated settings, then exit.
// --cache-rules: `nginx -t`, then the micro-cache's rules with nginx in front of a stub instance (no database,
// a few seconds; scripts/topology/cache-rules.mjs), then exit. The full run does both first.
//
// The run: every journey (bench/journey-steps.mjs: send → outbox → login → save → auth) goes through
// nginx from a loopback address of its own (127.1.x.y: the visitor), with a phone's retries: a
// dropped connection, 502, 503 or 504 is tried again (after a lost answer, a refusal that says the
// earlier try went through is what the person would see next: a code already sent, a code already
// used — a new code after the one-minute wait —, a consent already given). Mid-load, instance 1
// gets SIGKILL (started again 1 s later, as systemd's Restart= would); once it is back, instance 2 is
// restarted with SIGTERM; the load goes on until 3 s after that. Fails (exit 1) unless:
//   - no journey fails;
//   - both instances answered journeys (X-Upstream: a header only this test's settings add) and
//     logged requests with the visitors' addresses (TRUST_PROXY: X-Forwarded-For from nginx);
//   - every consented lead for an API lender is delivered, exactly one copy at the partner sandbox,
//     one delivered attempt;
//   - a forged X-Forwarded-For does not escape the per-address SMS cap; platform_param (an
//     underscore header) reaches the API (the per-device cap); nginx's SMS connection limit answers
//     the envelope; the hashed build files come pre-compressed from disk.
//   - each instance's metrics listener (METRICS_PORT, issue 19.1) counts the requests it answered since
//     its last start;
//   - the micro-cache (ADR 062, scripts/topology/cache.mjs), before the load: a burst of ad landings (two
//     keys) and h5Config with a click id per request, every answer 200 and the same bytes, most from nginx's
//     cache, and the instances (their metrics) seeing about one request per key per 5 s; a call with a
//     session token is never a cache HIT; an operator's edit of a channel's page title shows through nginx
//     within 5 s (+1 s for a busy machine).

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { clearRedisKeys, prepareBackend, psql } from '../bench/backend.mjs';
import { makeClient } from '../bench/journey-steps.mjs';
import { freePort, log, sleep, startChild, stopChild } from '../bench/lib.mjs';
import { checkCache, checkConsoleEdit } from './topology/cache.mjs';
import { checkCacheRules } from './topology/cache-rules.mjs';
import { checkEdge } from './topology/edge.mjs';
import {
  ensureNginx,
  makeCertificate,
  nginxErrorKinds,
  nginxTest,
  readTail,
  writeNginxConfig,
} from './topology/nginx.mjs';
import { runLoad, upstreams } from './topology/phones.mjs';

/**
 * Resolves how many ms it took until nginx (at `base`) answered a health check from the instance at `addr`
 * (its X-Upstream), polling every 250 ms; throws after `timeoutMs`.
 */
async function routedTo(base, ca, addr, timeoutMs) {
  const client = makeClient(base, { ca });
  const t0 = Date.now();
  try {
    while (Date.now() - t0 < timeoutMs) {
      const r = await client.call('GET', '/api/user/health');
      if (upstreams(r).at(-1) === addr) return Date.now() - t0;
      await sleep(250);
    }
  } finally {
    client.close();
  }
  throw new Error(`nginx did not route to ${addr} within ${timeoutMs} ms`);
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIR = path.join(ROOT, 'apps/server');
/** node's options before the built entry, as on the systemd units' ExecStart lines. */
const NODE_ARGS = ['--enable-source-maps'];
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '10' },
    'nginx-t': { type: 'boolean', default: false },
    'cache-rules': { type: 'boolean', default: false },
  },
});
const DURATION_MS = Number(args.duration) * 1000;
const CONNECTIONS = Number(args.connections);
// A database of its own (its public schema is wiped at start) and a Redis key prefix of its own.
const PG_URL = process.env.TOPOLOGY_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/lm_topology';
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const REDIS_PREFIX = 'lmtopology:';
/** The per-address SMS cap of the instances: far below the number of journeys (each from its own address). */
const IP_CAP = 20;
const DEVICE_CAP = 3;

const failures = [];
const check = (ok, what) => {
  if (ok) log(`ok: ${what}`);
  else {
    log(`FAIL: ${what}`);
    failures.push(what);
  }
};

// ---------------------------------------------------------------------------------------------
// the API instances and the worker

/** Counts an instance's request log lines, and whether they name the visitors' addresses. */
function watchLog(proc, stats) {
  let rest = '';
  proc.child.stdout.on('data', (d) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('"msg":"incoming request"')) {
        stats.requests++;
        if (line.includes('"ip":"127.1.')) stats.visitorIps++;
        else if (line.includes('"ip":"127.0.0.1"')) stats.proxyIps++;
      }
    }
  });
}

async function waitHealthy(base, label, proc) {
  const deadline = Date.now() + 120_000;
  let last = '';
  while (Date.now() < deadline) {
    if (proc?.hasExited()) break;
    try {
      const res = await fetch(`${base}/api/user/health`);
      const body = await res.json();
      if (body?.code === 200) return;
      last = JSON.stringify(body);
    } catch (err) {
      last = String(err?.cause?.code ?? err);
    }
    await sleep(250);
  }
  throw new Error(`${label} did not become healthy (${last})\n${proc ? proc.output().slice(-3000) : ''}`);
}

async function main() {
  const t0 = Date.now();
  ensureNginx();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lm-topology-'));
  const children = [];
  let nginx = null;
  try {
    const { cert, key } = makeCertificate(dir);
    const ca = readFileSync(cert);
    const [httpsPort, httpPort, api1, api2, metrics1, metrics2] = await Promise.all(
      Array.from({ length: 6 }, freePort),
    );
    const conf = writeNginxConfig(dir, { cert, key, httpsPort, httpPort, apiPorts: [api1, api2] });
    nginxTest(conf);
    check(true, 'nginx -t accepts deploy/nginx.conf (settings generated beside a copy of it)');
    if (args['nginx-t']) return;
    log("the micro-cache's rules: deploy/nginx.conf in front of a stub instance (ADR 062)");
    await checkCacheRules(dir, { cert, key, ca, check });
    if (args['cache-rules']) {
      console.log(`${failures.length ? 0 : 1} passed, ${failures.length ? 1 : 0} failed`);
      if (failures.length) process.exitCode = 1;
      return;
    }

    // The server as production runs it: built to JavaScript (ADR 064), fresh from the sources.
    execFileSync(process.execPath, [path.join(SERVER_DIR, 'scripts/build.mjs')], { stdio: 'inherit' });
    prepareBackend('postgres', { pgUrl: PG_URL });
    clearRedisKeys(REDIS_PREFIX, REDIS_URL);
    const base = `https://127.0.0.1:${httpsPort}`;
    const keys = {
      PII_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      PII_INDEX_KEY: randomBytes(32).toString('base64'),
      ENCRYPTED_MOBILE_KEYS: `demo:${randomBytes(16).toString('base64')}`,
    };
    const env = { ...process.env };
    for (const k of [
      'PORT',
      'DATABASE_URL',
      'REDIS_URL',
      'REDIS_KEY_PREFIX',
      'TRUST_PROXY',
      'PARTNER_SANDBOX_URL',
    ])
      delete env[k];
    Object.assign(env, keys, {
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: PG_URL,
      DATABASE_POOL_SIZE: '5',
      REDIS_URL,
      REDIS_KEY_PREFIX: REDIS_PREFIX,
      // nginx connects from 127.0.0.1; visitors come from 127.1.x.y.
      TRUST_PROXY: '127.0.0.1',
      SMS_IP_HOURLY_LIMIT: String(IP_CAP),
      SMS_DEVICE_HOURLY_LIMIT: String(DEVICE_CAP),
      DELIVERY_WORKER: 'off',
      PARTNER_SANDBOX: 'on',
      // The lenders' endpoints: the sandbox through nginx (whichever instance is up), over TLS.
      PARTNER_SANDBOX_URL: base,
      NODE_EXTRA_CA_CERTS: cert,
    });
    const instance = (port, metricsPort, label) => {
      const stats = { label, port, metricsPort, requests: 0, visitorIps: 0, proxyIps: 0, exits: [] };
      const start = () => {
        const proc = startChild(process.execPath, [...NODE_ARGS, 'dist/main.js'], {
          cwd: SERVER_DIR,
          env: {
            ...env,
            PORT: String(port),
            METRICS_PORT: String(metricsPort),
            DATA_DIR: path.join(dir, label),
          },
        });
        watchLog(proc, stats);
        proc.exited.then((e) => stats.exits.push(e));
        children.push(proc);
        stats.proc = proc;
        return proc;
      };
      const base = `http://127.0.0.1:${port}`;
      /**
       * Starts the instance and waits until it answers; one that exits while starting is started
       * again, as systemd's Restart=always would (counted and reported: on a saturated machine a
       * plugin can exceed Fastify's 10 s plugin timeout).
       */
      const up = async (what) => {
        for (let attempt = 1; ; attempt++) {
          const proc = start();
          try {
            return await waitHealthy(base, what, proc);
          } catch (err) {
            if (!proc.hasExited() || attempt >= 3) throw err;
            stats.startupRestarts = (stats.startupRestarts ?? 0) + 1;
            log(
              `${what}: exited while starting (${JSON.stringify(proc.exitInfo())}); starting again as Restart= would`,
            );
            log(proc.output().slice(-600));
          }
        }
      };
      return { stats, start, up, base };
    };
    const a = instance(api1, metrics1, 'api1');
    const b = instance(api2, metrics2, 'api2');
    // One at a time: the first migrates the fresh schema.
    await a.up('api1');
    await b.up('api2');
    const worker = startChild(process.execPath, [...NODE_ARGS, 'dist/worker.js'], {
      cwd: SERVER_DIR,
      env: {
        ...env,
        PORT: '0',
        // Its metrics listener on a free port: the default 9464 may be another process's on this machine
        // (an e2e server took it once and the worker exited with EADDRINUSE).
        METRICS_PORT: '0',
        DATA_DIR: path.join(dir, 'worker'),
        LOG_LEVEL: 'warn',
        DELIVERY_POLL_MS: '100',
        DELIVERY_BACKOFF_BASE_MS: '200',
        DELIVERY_BACKOFF_MAX_MS: '1000',
        DELIVERY_MAX_ATTEMPTS: '50',
        // The lease well above the timeout, as the defaults (60 s, 10 s): a delivery still in flight is
        // never claimed again (the worker is not killed here).
        DELIVERY_LEASE_MS: '30000',
        DELIVERY_TIMEOUT_MS: '5000',
      },
    });
    children.push(worker);
    nginx = startChild('nginx', ['-c', conf, '-g', 'daemon off;'], { cwd: dir });
    {
      // Through nginx with the journey client (fetch does not take this test's CA).
      const c = makeClient(base, { ca });
      const until = Date.now() + 20_000;
      let r = await c.call('GET', '/api/user/health');
      while (r.json?.code !== 200 && Date.now() < until && !nginx.hasExited()) {
        await sleep(200);
        r = await c.call('GET', '/api/user/health');
      }
      c.close();
      if (r.json?.code !== 200)
        throw new Error(
          `nginx did not answer /api/user/health: ${r.status} ${r.error ?? ''}\n${nginx.output()}`,
        );
    }
    log(
      `up in ${Math.round((Date.now() - t0) / 1000)} s: nginx https :${httpsPort}, api :${api1} :${api2}, worker`,
    );

    await checkEdge(base, ca, dir, { check, ipCap: IP_CAP, deviceCap: DEVICE_CAP });
    log('the micro-cache: a burst of ad landings and h5Config calls with distinct click ids (ADR 062)');
    await checkCache(base, ca, { check, metricsPorts: [metrics1, metrics2] });
    const createStaff = (phone, password) =>
      execFileSync(
        process.execPath,
        [
          ...NODE_ARGS,
          'dist/admin-create.js',
          '--phone',
          phone,
          '--name',
          '拓扑运营',
          '--role',
          'operator',
          '--password',
          password,
        ],
        {
          cwd: SERVER_DIR,
          env: { ...env, DATA_DIR: path.join(dir, 'cli') },
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
    await checkConsoleEdit(base, ca, { check, createStaff });

    // ---- load, a SIGKILL and a SIGTERM restart
    const stats = {
      started: 0,
      ok: 0,
      failed: 0,
      consented: 0,
      consentedProducts: 0,
      retries: 0,
      retryCauses: {},
      nginxRetried: 0,
      failures: {},
      byInstance: {},
      recovered: { send: 0, resend: 0, login: 0, auth: 0 },
      phase: 'before the SIGKILL',
      retriesByPhase: {},
      byPhase: {},
    };
    const loadStart = Date.now();
    // The load runs for --duration, and in any case until 3 s after the second restart.
    let until = Number.POSITIVE_INFINITY;
    const chaos = (async () => {
      await sleep(Math.min(5000, DURATION_MS / 4));
      log('SIGKILL api1 mid-load');
      a.stats.proc.child.kill('SIGKILL');
      stats.phase = 'SIGKILL of api1 until it is back';
      await a.stats.proc.exited;
      await sleep(1000);
      log('api1 restarts (as systemd Restart= would)');
      await a.up('api1 (after SIGKILL)');
      // A rolling restart goes on only once nginx sends traffic to the instance that came back: its passive
      // check keeps an instance that failed out for fail_timeout, and taking the other one down meanwhile
      // leaves nginx no live upstream (docs/operations.md, "Migrations during a rolling deploy").
      stats.phase = 'api1 back, until nginx routes to it';
      const routed = await routedTo(base, ca, `127.0.0.1:${a.stats.port}`, 30_000);
      log(`nginx routed a request to api1 ${routed} ms after it answered its own health check`);
      stats.api1RoutedAfterMs = routed;
      log('SIGTERM api2 (restart)');
      stats.phase = 'SIGTERM restart of api2';
      const exit = await stopChild(b.stats.proc, 'api2');
      log(`api2 exited ${JSON.stringify(exit)}; starting it again`);
      await b.up('api2 (after SIGTERM)');
      stats.phase = 'after both restarts';
      until = Math.max(loadStart + DURATION_MS, Date.now() + 3000);
    })();
    // A failed restart ends the load too (and the test, with its error).
    chaos.catch(() => {
      until = 0;
    });
    const load = runLoad(base, ca, () => until, stats, CONNECTIONS);
    await Promise.all([load, chaos]);
    const loadSeconds = (Date.now() - loadStart) / 1000;

    // ---- deliveries settle
    const deadline = Date.now() + 45_000;
    let pending = -1;
    while (Date.now() < deadline) {
      pending = Number(psql(PG_URL, "select count(*) from leads where status = 'pending'").trim());
      if (pending === 0) break;
      await sleep(500);
    }
    const leadFigures = psql(
      PG_URL,
      `select count(*) filter (where mode = 'api'),
              count(*) filter (where mode = 'api' and status = 'delivered'),
              count(*),
              (select count(*) from consents)
         from leads`,
    )
      .trim()
      .split('|')
      .map(Number);
    const [apiLeads, apiDelivered, allLeads, consents] = leadFigures;
    const sandbox = psql(
      PG_URL,
      `select count(*), count(distinct idempotency_key),
              count(*) filter (where idempotency_key not in (select idempotency_key from leads))
         from sandbox_partner_leads`,
    )
      .trim()
      .split('|')
      .map(Number);
    const notAtPartner = Number(
      psql(
        PG_URL,
        `select count(*) from leads l where l.mode = 'api'
            and not exists (select 1 from sandbox_partner_leads s where s.idempotency_key = l.idempotency_key)`,
      ).trim(),
    );
    const twiceDelivered = Number(
      psql(
        PG_URL,
        `select count(*) from (select lead_id from lead_attempts where outcome in ('delivered', 'duplicate')
            group by lead_id having count(*) > 1) x`,
      ).trim(),
    );
    const attemptsByOutcome = psql(
      PG_URL,
      'select outcome, count(*) from lead_attempts group by 1 order by 1',
    )
      .trim()
      .replace(/\n/g, ', ');

    // Each instance's own count of what it answered since it last started (its metrics listener).
    const countedRequests = async (s) => {
      try {
        const res = await fetch(`http://127.0.0.1:${s.metricsPort}/metrics`);
        const text = res.ok ? await res.text() : '';
        return [...text.matchAll(/^lm_http_request_duration_seconds_count\{[^}]*\} (\d+)/gm)].reduce(
          (sum, m) => sum + Number(m[1]),
          0,
        );
      } catch {
        return 0;
      }
    };
    const metricsCounts = [await countedRequests(a.stats), await countedRequests(b.stats)];

    // ---- report
    console.log(
      `\ntopology: ${CONNECTIONS} phones for ${loadSeconds.toFixed(1)} s through nginx (TLS): ${stats.started} journeys, ` +
        `${stats.ok} completed, ${stats.failed} failed; ${stats.consented} consented to ${stats.consentedProducts} lenders`,
    );
    console.log(
      `  phone retries ${stats.retries} ${JSON.stringify(stats.retryCauses)}, by phase ${JSON.stringify(stats.retriesByPhase)}; recovered after a lost answer ${JSON.stringify(stats.recovered)}; ` +
        `answers nginx took from a second instance ${stats.nginxRetried}`,
    );
    console.log(`  answers by instance (X-Upstream): ${JSON.stringify(stats.byInstance)}`);
    console.log(
      `  requests counted by each instance's metrics since its last start: ${a.stats.label} ${metricsCounts[0]}, ${b.stats.label} ${metricsCounts[1]}`,
    );
    for (const [phase, counts] of Object.entries(stats.byPhase))
      console.log(`    ${phase}: ${JSON.stringify(counts)}`);
    for (const s of [a.stats, b.stats])
      console.log(
        `  ${s.label} :${s.port}: ${s.requests} requests logged, ${s.visitorIps} with a visitor's address, ${s.proxyIps} with nginx's; exits ${JSON.stringify(s.exits)}; restarted while starting ${s.startupRestarts ?? 0}×`,
      );
    console.log(
      `  leads ${allLeads} (API lenders ${apiLeads}, delivered ${apiDelivered}, still pending ${pending}); consents ${consents}; ` +
        `partner sandbox ${sandbox[0]} received (${sandbox[1]} distinct keys, ${sandbox[2]} unknown); attempts ${attemptsByOutcome}`,
    );
    if (stats.failed) console.log(`  failures: ${JSON.stringify(stats.failures)}`);
    const nginxErrors = nginxErrorKinds(path.join(dir, 'error.log'));
    console.log(`  nginx's error log: ${JSON.stringify(nginxErrors)}`);

    check(stats.failed === 0, `no journey failed (${stats.failed} of ${stats.started})`);
    check(stats.ok >= CONNECTIONS * 2, `journeys completed under load (${stats.ok})`);
    for (const s of [a.stats, b.stats]) {
      check((stats.byInstance[`127.0.0.1:${s.port}`] ?? 0) > 0, `${s.label} answered journeys through nginx`);
      check(s.visitorIps > 0, `${s.label} logged visitors' addresses (X-Forwarded-For from a trusted proxy)`);
    }
    check(metricsCounts[0] > 0, `${a.stats.label}'s metrics show its traffic (${metricsCounts[0]} requests)`);
    check(metricsCounts[1] > 0, `${b.stats.label}'s metrics show its traffic (${metricsCounts[1]} requests)`);
    const rejoined = stats.byPhase['SIGTERM restart of api2']?.[`127.0.0.1:${a.stats.port}`] ?? 0;
    check(rejoined > 0, `api1, killed and started again, answered while api2 restarted (${rejoined})`);
    // The rolling restart waited until nginx routed to api1 again: one instance was live throughout.
    check(
      nginxErrors['no live upstreams'] === 0,
      `nginx always had a live instance (${nginxErrors['no live upstreams']} "no live upstreams"; api1 routed ${stats.api1RoutedAfterMs} ms after it was back)`,
    );
    check(
      a.stats.exits.some((e) => e.signal === 'SIGKILL'),
      `api1 was killed with SIGKILL (${JSON.stringify(a.stats.exits)})`,
    );
    check(
      b.stats.exits.some((e) => e.code === 0),
      `api2 stopped cleanly on SIGTERM (${JSON.stringify(b.stats.exits)})`,
    );
    check(
      stats.consentedProducts > 0 && allLeads === stats.consentedProducts,
      `one lead per consent (${allLeads} leads for ${stats.consentedProducts} consented lenders)`,
    );
    check(consents === allLeads, `one consent record per lead (${consents})`);
    check(
      apiLeads > 0 && apiDelivered === apiLeads,
      `every API lender's lead delivered (${apiDelivered} of ${apiLeads})`,
    );
    check(notAtPartner === 0, `no lead missing at the partner (${notAtPartner})`);
    check(
      sandbox[0] === sandbox[1] && sandbox[0] === apiLeads && sandbox[2] === 0,
      'each lead once at the partner',
    );
    check(twiceDelivered === 0, `no lead delivered twice (${twiceDelivered})`);
    check(!worker.hasExited(), 'the worker ran throughout');
    if (worker.hasExited()) {
      log(
        `worker exit ${JSON.stringify(worker.exitInfo())}; its output (tail):\n${worker.output().slice(-3000)}`,
      );
    }
  } finally {
    if (nginx && !nginx.hasExited()) {
      nginx.child.kill('SIGQUIT');
      await Promise.race([nginx.exited, sleep(5000)]);
      if (!nginx.hasExited()) nginx.child.kill('SIGKILL');
    }
    await Promise.all(children.map((c) => stopChild(c, 'child')));
    try {
      clearRedisKeys(REDIS_PREFIX, REDIS_URL);
    } catch {
      // the test's verdict stands
    }
    if (failures.length) {
      log(`nginx error log (tail):\n${readTail(path.join(dir, 'error.log'))}`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  log(`topology test ${failures.length ? 'FAILED' : 'passed'} in ${Math.round((Date.now() - t0) / 1000)} s`);
  console.log(`${failures.length ? 0 : 1} passed, ${failures.length ? 1 : 0} failed`);
  if (failures.length) {
    for (const f of failures) console.error(`  failed: ${f}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  log(`topology test FAILED: ${err.stack ?? err}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
