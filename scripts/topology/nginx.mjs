// nginx for the topology test: Debian's package, a self-signed certificate, the config generated around
// deploy/nginx.conf (unchanged but for the micro-cache's directory), `nginx -t`, and what its error log says.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { log } from '../../bench/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The micro-cache's directory in deploy/nginx.conf (ADR 062). */
const CACHE_DIR = '/var/lib/nginx/lm-cache';

export function ensureNginx() {
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
export function makeCertificate(dir) {
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
 * deploy/nginx.conf copied into `dir` (the micro-cache in `dir`/cache), with the five settings files it includes. Only the
 * HTTPS server's settings add a test-only line: X-Upstream, the instance(s) that answered.
 */
export function writeNginxConfig(dir, { cert, key, httpsPort, httpPort, apiPorts }) {
  const conf = path.join(dir, 'nginx.conf');
  // The micro-cache's directory is the run's own (two runs on one machine must not share entries); every
  // other parameter of proxy_cache_path stays as shipped.
  const shipped = readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
  const cacheDir = `proxy_cache_path ${CACHE_DIR} `;
  if (shipped.split(cacheDir).length !== 2) throw new Error(`deploy/nginx.conf: no single "${cacheDir}"`);
  writeFileSync(conf, shipped.replace(cacheDir, `proxy_cache_path ${path.join(dir, 'cache')} `));
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

export function nginxTest(conf) {
  const r = spawnSync('nginx', ['-t', '-c', conf], { encoding: 'utf8' });
  process.stderr.write(r.stderr);
  if (r.status !== 0) throw new Error(`nginx -t refused ${conf} (exit ${r.status})`);
}

/** nginx's error log lines by kind (what the instances' restarts looked like from nginx). */
export function nginxErrorKinds(file) {
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

export function readTail(file) {
  try {
    return readFileSync(file, 'utf8').slice(-3000);
  } catch {
    return '(none)';
  }
}
