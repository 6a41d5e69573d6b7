#!/usr/bin/env node
/**
 * Page weight and speed of the H5.
 *   node bench/web.mjs [--no-build] [--no-lighthouse] [--routes /,/login]
 * 1. builds the front ends (npm run build:ui: Vite + pre-compression),
 * 2. starts the real server on a fresh embedded database,
 * 3. opens each route in Debian's Chromium (375×812) and lists the JavaScript and CSS it loads on
 *    first visit, with their gzip and brotli sizes (what a phone downloads),
 * 4. runs Lighthouse (mobile preset: slow 4G and CPU throttling simulated) on / and /login and prints
 *    the performance score, LCP, TBT and CLS. Lighthouse 12 is fetched by npx (Node 20 compatible).
 * Budgets (issue 3): first-load JS of / and /login ≤ 150 KB gzipped; performance ≥ 95; LCP ≤ 1.8 s; CLS < 0.05.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..');
const WEB_DIST = join(ROOT, 'apps/web/dist');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    'no-lighthouse': { type: 'boolean', default: false },
    routes: {
      type: 'string',
      default:
        '/,/login,/getQuota,/fill-information,/fill-information/common-authorize,/credit-process/identity-verification,/my',
    },
    'lighthouse-routes': { type: 'string', default: '/,/login' },
  },
});

const kb = (n) => (n / 1024).toFixed(1);

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

async function startServer() {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'lm-bench-web-')),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${url}/api/user/health`)).ok) return { url, child };
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill();
  throw new Error('server did not start');
}

function assetSizes(pathname) {
  const file = join(WEB_DIST, pathname);
  if (!existsSync(file)) return null;
  const raw = readFileSync(file);
  const br = existsSync(`${file}.br`) ? readFileSync(`${file}.br`).length : null;
  return { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length, br };
}

async function firstLoad(browser, url, route) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
  });
  const page = await context.newPage();
  const assets = new Map();
  page.on('response', (res) => {
    const u = new URL(res.url());
    if (u.origin !== url) return;
    const type = res.request().resourceType();
    if (type === 'script' || type === 'stylesheet') assets.set(u.pathname, type);
  });
  await page.goto(url + route, { waitUntil: 'networkidle' });
  await context.close();
  const rows = [...assets].map(([path, type]) => ({ path, type, ...assetSizes(path) }));
  const sum = (type, key) => rows.filter((r) => r.type === type).reduce((n, r) => n + (r[key] ?? 0), 0);
  return {
    route,
    jsFiles: rows.filter((r) => r.type === 'script').length,
    jsGzip: sum('script', 'gzip'),
    jsBr: sum('script', 'br'),
    cssGzip: sum('stylesheet', 'gzip'),
    files: rows,
  };
}

function lighthouse(url, method) {
  const out = join(mkdtempSync(join(tmpdir(), 'lh-')), 'report.json');
  execFileSync(
    'npx',
    [
      '--yes',
      'lighthouse@12.2.3',
      url,
      '--only-categories=performance',
      '--output=json',
      `--output-path=${out}`,
      '--quiet',
      `--throttling-method=${method}`,
      `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
    ],
    {
      env: { ...process.env, CHROME_PATH: CHROME },
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 240_000,
    },
  );
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const a = report.audits;
  return {
    score: Math.round(report.categories.performance.score * 100),
    lcpMs: Math.round(a['largest-contentful-paint'].numericValue),
    fcpMs: Math.round(a['first-contentful-paint'].numericValue),
    tbtMs: Math.round(a['total-blocking-time'].numericValue),
    cls: Number(a['cumulative-layout-shift'].numericValue.toFixed(3)),
    speedIndexMs: Math.round(a['speed-index'].numericValue),
  };
}

async function main() {
  if (!values['no-build']) {
    console.log('building the front ends …');
    execFileSync('npm', ['run', 'build:ui'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const { url, child } = await startServer();
  const results = { date: new Date().toISOString(), node: process.version, routes: [], lighthouse: [] };
  try {
    const browser = await chromium.launch({
      executablePath: CHROME,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      for (const route of values.routes.split(',')) results.routes.push(await firstLoad(browser, url, route));
    } finally {
      await browser.close();
    }
    console.log('\nFirst visit: JavaScript and CSS loaded (sizes as sent compressed)');
    console.log('route'.padEnd(42), 'js files', 'js gzip KB', 'js br KB', 'css gzip KB');
    for (const r of results.routes) {
      console.log(
        r.route.padEnd(42),
        String(r.jsFiles).padStart(8),
        kb(r.jsGzip).padStart(10),
        kb(r.jsBr).padStart(8),
        kb(r.cssGzip).padStart(11),
      );
    }
    if (!values['no-lighthouse']) {
      console.log('\nLighthouse 12, mobile preset (slow 4G: 150 ms RTT, 1.6 Mbps, CPU ×4), Debian Chromium');
      console.log('  simulate = Lantern estimate from an unthrottled load (Lighthouse default)');
      console.log('  devtools = the same slow-4G profile applied to the browser and measured');
      console.log(
        'route'.padEnd(20),
        'method'.padEnd(9),
        'score',
        'LCP ms',
        'FCP ms',
        'TBT ms',
        'CLS',
        'SI ms',
      );
      for (const [route, method] of values['lighthouse-routes']
        .split(',')
        .flatMap((r) => ['simulate', 'devtools'].map((m) => [r, m]))) {
        const r = { route, method, ...lighthouse(url + route, method) };
        results.lighthouse.push(r);
        console.log(
          route.padEnd(20),
          method.padEnd(9),
          String(r.score).padStart(5),
          String(r.lcpMs).padStart(6),
          String(r.fcpMs).padStart(6),
          String(r.tbtMs).padStart(6),
          String(r.cls).padStart(5),
          String(r.speedIndexMs).padStart(6),
        );
      }
    }
  } finally {
    child.kill('SIGTERM');
  }
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = join(ROOT, 'bench/results', `web-${results.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nwritten ${file}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
