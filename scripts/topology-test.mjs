#!/usr/bin/env node
// Topology test (issue 19.3), run by .ci/run: Debian's nginx with deploy/nginx.conf (unchanged, its
// per-site settings generated beside a copy of it) over TLS (a self-signed certificate made here
// with openssl) in front of two API instances and one delivery worker, on PostgreSQL + Redis, all on
// this machine. See docs/operations.md, "The topology test".
//
//   node scripts/topology-test.mjs [--duration 20] [--connections 10] [--nginx-t]
//
// --nginx-t: only `nginx -t` on deploy/nginx.conf with generated settings, then exit.
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
//     its last start.

import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeClient, newCtx, STEP_FNS, STEPS, StepError } from '../bench/journey-steps.mjs';
import { freePort, log, sleep, startChild, stopChild } from '../bench/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIR = path.join(ROOT, 'apps/server');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '10' },
    'nginx-t': { type: 'boolean', default: false },
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
// nginx: Debian's package, the config generated around deploy/nginx.conf

function ensureNginx() {
  const has = () =>
    spawnSync('sh', ['-c', 'command -v nginx'], { stdio: 'ignore' }).status === 0 &&
    existsSync('/usr/lib/nginx/modules/ngx_http_brotli_static_module.so');
  if (has()) return;
  log("nginx (or its brotli_static module) missing: installing Debian's packages");
  // Installing must not start a system nginx on port 80 (no init system here): deny service starts
  // for the install, as Debian's container images do, unless a policy is already in place.
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'nginx', 'libnginx-mod-http-brotli-static'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } finally {
    if (ownPolicy) rmSync(policy, { force: true });
  }
  if (!has()) throw new Error('nginx is still missing after apt-get install');
}

/** A self-signed certificate for 127.0.0.1 / localhost. */
function makeCertificate(dir) {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return { cert, key };
}

/**
 * deploy/nginx.conf copied unchanged into `dir`, with the five settings files it includes. Only the
 * HTTPS server's settings add a test-only line: X-Upstream, the instance(s) that answered.
 */
function writeNginxConfig(dir, { cert, key, httpsPort, httpPort, apiPorts }) {
  const conf = path.join(dir, 'nginx.conf');
  copyFileSync(path.join(ROOT, 'deploy/nginx.conf'), conf);
  const settings = path.join(dir, 'loan-market');
  mkdirSync(settings, { recursive: true });
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    mkdirSync(path.join(dir, 'tmp', t), { recursive: true });
  // The workers run as root here: this test's files and temp paths are root's.
  writeFileSync(
    path.join(settings, 'main.conf'),
    `user root;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n`,
  );
  writeFileSync(
    path.join(settings, 'http.conf'),
    [
      `access_log ${dir}/access.log lm;`,
      ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (t) => `${t === 'body' ? 'client_body' : t}_temp_path ${dir}/tmp/${t};`,
      ),
      '',
    ].join('\n'),
  );
  // The same passive health-check parameters as deploy/loan-market/upstream.conf.
  writeFileSync(
    path.join(settings, 'upstream.conf'),
    apiPorts.map((p) => `server 127.0.0.1:${p} max_fails=2 fail_timeout=5s;\n`).join(''),
  );
  writeFileSync(
    path.join(settings, 'redirect.conf'),
    `listen 127.0.0.1:${httpPort};\nserver_name localhost;\n`,
  );
  writeFileSync(
    path.join(settings, 'https.conf'),
    [
      `listen 127.0.0.1:${httpsPort} ssl http2;`,
      'server_name localhost;',
      `ssl_certificate ${cert};`,
      `ssl_certificate_key ${key};`,
      `set $lm_apps ${ROOT}/apps;`,
      '# test only: which instance(s) answered (never in production: it names internal addresses)',
      'add_header X-Upstream $upstream_addr always;',
      '',
    ].join('\n'),
  );
  return conf;
}

function nginxTest(conf) {
  const r = spawnSync('nginx', ['-t', '-c', conf], { encoding: 'utf8' });
  process.stderr.write(r.stderr);
  if (r.status !== 0) throw new Error(`nginx -t refused ${conf} (exit ${r.status})`);
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL, Redis

const psqlEnv = { ...process.env, PGOPTIONS: '--client-min-messages=warning' };
function psql(url, sql) {
  return execFileSync('psql', [url, '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: psqlEnv,
  });
}

function prepareDatabase() {
  const db = new URL(PG_URL).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(db)) throw new Error(`unexpected database name ${db}`);
  const admin = new URL(PG_URL);
  admin.pathname = '/postgres';
  if (psql(admin.href, `select 1 from pg_database where datname = '${db}'`).trim() !== '1') {
    psql(admin.href, `create database ${db}`);
  }
  psql(PG_URL, 'drop schema public cascade; create schema public; drop schema if exists drizzle cascade;');
}

function clearRedis() {
  const url = new URL(REDIS_URL);
  const cli = `redis-cli -h ${url.hostname} -p ${url.port || 6379}`;
  execFileSync(
    'sh',
    ['-c', `${cli} --scan --pattern '${REDIS_PREFIX}*' | xargs -r -n 500 ${cli} del > /dev/null`],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

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

// ---------------------------------------------------------------------------------------------
// journeys with a phone's retries

const RETRYABLE = (r) => r.status === 0 || r.status === 502 || r.status === 503 || r.status === 504;
const upstreams = (r) =>
  String(r.headers?.['x-upstream'] ?? '')
    .split(/,\s*/)
    .filter(Boolean);

let visitorCounter = 0;
/** A loopback address of its own per journey: 127.1.0.1, 127.1.0.2, … (the kernel routes 127/8 to lo). */
function nextVisitor() {
  const n = visitorCounter++;
  return `127.1.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

/**
 * A client of nginx for one journey, which retries as a phone would and records which instance
 * answered. `stats` collects retries, recoveries and answers per instance.
 */
function phoneClient(base, ca, stats) {
  const visitor = nextVisitor();
  const inner = makeClient(base, { ca, localAddress: visitor });
  const ctxRef = { ctx: null };
  async function attempt(method, url, body, token) {
    const r = await inner.call(method, url, body, token);
    const ups = upstreams(r);
    const last = ups.at(-1);
    if (last) {
      stats.byInstance[last] = (stats.byInstance[last] ?? 0) + 1;
      stats.byPhase[stats.phase] ??= {};
      const phase = stats.byPhase[stats.phase];
      phase[last] = (phase[last] ?? 0) + 1;
    }
    if (ups.length > 1) stats.nginxRetried++;
    return r;
  }
  async function call(method, url, body, token) {
    let r = await attempt(method, url, body, token);
    let lost = false;
    for (let i = 1; RETRYABLE(r) && i <= 8; i++) {
      lost = true;
      stats.retries++;
      stats.retriesByPhase[stats.phase] = (stats.retriesByPhase[stats.phase] ?? 0) + 1;
      stats.retryCauses[`${r.status || r.error}`] = (stats.retryCauses[`${r.status || r.error}`] ?? 0) + 1;
      await sleep(300 * i);
      r = await attempt(method, url, body, token);
    }
    const ctx = ctxRef.ctx;
    const code = r.json?.code;
    // nginx itself may have sent a PUT again to the other instance (PUT counts as idempotent).
    const retriedByNginx = upstreams(r).length > 1;
    if (url === '/api/login/sendPhoneVerifyCode') {
      if (r.json?.code === 200) ctx.sentAt = Date.now();
      if (lost && r.status === 429 && String(r.json?.msg).includes('验证码已发送')) {
        // The earlier try sent the code: the person has it.
        stats.recovered.send++;
        ctx.sentAt = Date.now() - 5_000;
        return { ...r, status: 200, json: { code: 200, msg: 'ok', data: null } };
      }
    }
    if (url === '/api/login' && lost && code === 1002) {
      // The earlier try used the code: a new one after the one-minute wait, then log in.
      stats.recovered.login++;
      await sleep(Math.max(0, (ctx.sentAt ?? Date.now()) + 62_000 - Date.now()));
      const sent = await call('POST', '/api/login/sendPhoneVerifyCode', { phone: ctx.phone });
      if (sent.json?.code !== 200) return sent;
      const out = await call('GET', `/api/dev/sms-outbox?phone=${ctx.phone}`);
      const fresh = out.json?.data?.[0]?.code;
      return call('POST', '/api/login', { phone: ctx.phone, code: fresh }, token);
    }
    if (url === '/api/user/info/auth' && code === 1102 && (lost || retriedByNginx)) {
      // An earlier try recorded the consent (the offers are no longer open): checked in the database.
      stats.recovered.auth++;
      ctx.consentAnswerLost = true;
      return { ...r, status: 200, json: { code: 200, msg: 'ok', data: null } };
    }
    return r;
  }
  return {
    call,
    bind: (ctx) => {
      ctxRef.ctx = ctx;
    },
    close: () => inner.close(),
  };
}

async function runLoad(base, ca, until, stats) {
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until()) {
        const client = phoneClient(base, ca, stats);
        const ctx = newCtx();
        client.bind(ctx);
        stats.started++;
        try {
          for (const name of STEPS) await STEP_FNS[name](client, ctx);
          stats.ok++;
          if (ctx.productIds.length) {
            stats.consented++;
            stats.consentedProducts += ctx.productIds.length;
          }
        } catch (err) {
          if (!(err instanceof StepError)) throw err;
          stats.failed++;
          stats.failures[err.key] = (stats.failures[err.key] ?? 0) + 1;
        } finally {
          client.close();
        }
      }
    }),
  );
}

// ---------------------------------------------------------------------------------------------

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

    prepareDatabase();
    clearRedis();
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
        const proc = startChild(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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
    const worker = startChild(process.execPath, ['--import', 'tsx', 'src/cli/worker.ts'], {
      cwd: SERVER_DIR,
      env: {
        ...env,
        PORT: '0',
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

    await checkEdge(base, ca, dir);

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
      recovered: { send: 0, login: 0, auth: 0 },
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
    const load = runLoad(base, ca, () => until, stats);
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
    console.log(`  nginx's error log: ${JSON.stringify(nginxErrorKinds(path.join(dir, 'error.log')))}`);

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
  } finally {
    if (nginx && !nginx.hasExited()) {
      nginx.child.kill('SIGQUIT');
      await Promise.race([nginx.exited, sleep(5000)]);
      if (!nginx.hasExited()) nginx.child.kill('SIGKILL');
    }
    await Promise.all(children.map((c) => stopChild(c, 'child')));
    try {
      clearRedis();
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

/** nginx's error log lines by kind (what the instances' restarts looked like from nginx). */
function nginxErrorKinds(file) {
  const kinds = {
    'connect() failed': 0,
    'no live upstreams': 0,
    'upstream prematurely closed': 0,
    'timed out': 0,
    'temporarily disabled': 0,
    'limiting connections': 0,
  };
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return kinds;
  }
  for (const line of text.split('\n')) {
    for (const k of Object.keys(kinds)) if (line.includes(k)) kinds[k]++;
  }
  return kinds;
}

function readTail(file) {
  try {
    return readFileSync(file, 'utf8').slice(-3000);
  } catch {
    return '(none)';
  }
}

/**
 * What the edge does before any load: statics pre-compressed from disk, X-Request-Id, underscore
 * headers, a forged X-Forwarded-For, the SMS connection limit.
 */
async function checkEdge(base, ca, dir) {
  // Hashed build files: straight from disk (no upstream), brotli or gzip as the browser asks.
  const index = readFileSync(path.join(ROOT, 'apps/web/dist/index.html'), 'utf8');
  const found = /assets\/[^"']+\.js/.exec(index)?.[0];
  const asset = found && `/${found}`;
  check(Boolean(asset), `the built index.html names a script (${asset})`);
  for (const [enc, want] of [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
  ]) {
    const c = makeClient(base, { ca, headers: { 'accept-encoding': enc } });
    const r = await c.call('GET', asset);
    c.close();
    check(
      r.status === 200 &&
        r.headers['content-encoding'] === want &&
        /immutable/.test(r.headers['cache-control'] ?? '') &&
        !r.headers['x-upstream'],
      `${asset} with Accept-Encoding "${enc}": ${r.status}, ${r.headers['content-encoding']}, from disk (${r.headers['x-upstream'] ?? 'no upstream'})`,
    );
  }
  const adminIndex = readFileSync(path.join(ROOT, 'apps/admin/dist/index.html'), 'utf8');
  const adminFound = /assets\/[^"']+\.js/.exec(adminIndex)?.[0];
  const adminAsset = adminFound && `/admin/${adminFound}`;
  {
    const c = makeClient(base, { ca, headers: { 'accept-encoding': 'br' } });
    const r = await c.call('GET', adminAsset);
    c.close();
    check(
      r.status === 200 && r.headers['content-encoding'] === 'br' && !r.headers['x-upstream'],
      `${adminAsset}: ${r.status}, ${r.headers['content-encoding']}, from disk`,
    );
  }

  // X-Request-Id: nginx's id reaches the instance (which answers it) and nginx's log.
  {
    const c = makeClient(base, { ca });
    const r = await c.call('GET', '/api/user/health');
    c.close();
    const rid = r.headers['x-request-id'] ?? '';
    await sleep(300);
    const accessLog = readFileSync(path.join(dir, 'access.log'), 'utf8');
    check(
      /^[0-9a-f]{32}$/.test(rid) && accessLog.includes(`rid=${rid}`),
      `X-Request-Id ${rid} in the answer and nginx's log`,
    );
  }

  // A visitor forging X-Forwarded-For is still counted on its own address: the IP cap bites.
  {
    const codes = [];
    let lastMsg = '';
    for (let i = 0; i <= IP_CAP; i++) {
      const c = makeClient(base, {
        ca,
        localAddress: '127.0.9.2',
        headers: { 'x-forwarded-for': `10.${i}.${randomBytes(1)[0]}.${randomBytes(1)[0]}` },
      });
      const r = await c.call('POST', '/api/login/sendPhoneVerifyCode', { phone: newCtx().phone });
      c.close();
      codes.push(r.status);
      lastMsg = r.json?.msg ?? '';
    }
    check(
      codes.slice(0, IP_CAP).every((s) => s === 200) &&
        codes[IP_CAP] === 429 &&
        lastMsg.includes('当前网络获取验证码过于频繁'),
      `forged X-Forwarded-For: sends ${IP_CAP} answered, the next refused by the per-address cap (${codes.join(',')}: ${lastMsg})`,
    );
  }

  // platform_param (an underscore header) reaches the API: the per-device cap counts it.
  {
    const fingerprint = randomBytes(8).toString('hex');
    const codes = [];
    let lastMsg = '';
    for (let i = 0; i <= DEVICE_CAP; i++) {
      const c = makeClient(base, {
        ca,
        localAddress: `127.0.9.${10 + i}`,
        headers: { platform_param: JSON.stringify({ fingerprint }) },
      });
      const r = await c.call('POST', '/api/login/sendPhoneVerifyCode', { phone: newCtx().phone });
      c.close();
      codes.push(r.status);
      lastMsg = r.json?.msg ?? '';
    }
    check(
      codes.slice(0, DEVICE_CAP).every((s) => s === 200) &&
        codes[DEVICE_CAP] === 429 &&
        lastMsg.includes('当前设备'),
      `platform_param passes nginx: the device cap refuses send ${DEVICE_CAP + 1} (${codes.join(',')}: ${lastMsg})`,
    );
  }

  // The SMS connection limit: many sends at once from one address; nginx refuses some with the envelope.
  {
    const n = 16;
    const clients = Array.from({ length: n }, () => makeClient(base, { ca, localAddress: '127.0.9.50' }));
    const rs = await Promise.all(
      clients.map((c) => c.call('POST', '/api/login/sendPhoneVerifyCode', { phone: newCtx().phone })),
    );
    for (const c of clients) c.close();
    const byNginx = rs.filter((r) => r.status === 429 && !r.headers['x-upstream']);
    const other = rs.filter((r) => r.status !== 200 && !(r.status === 429));
    check(
      byNginx.length > 0 && other.length === 0 && byNginx.every((r) => r.json?.code === 429 && r.json?.msg),
      `${n} sends at once from one address: ${rs.filter((r) => r.status === 200).length} answered, ${byNginx.length} refused by nginx's connection limit with the envelope`,
    );
  }
}

main().catch((err) => {
  log(`topology test FAILED: ${err.stack ?? err}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
