#!/usr/bin/env node
/**
 * Page weight and speed of the H5 (issues 3 and 8).
 *   node bench/web.mjs [--no-build] [--no-lighthouse] [--runs 2] [--routes …] [--lighthouse-routes …]
 *                      [--methods simulate,devtools] [--categories performance,accessibility]
 * Routes may carry a query (`/login?adChannelCode=demo-skin8`): the page is then checked by its path.
 * 1. builds the front ends (npm run build:ui: Vite, the pre-render, pre-compression),
 * 2. starts the real server (development mode: the SMS outbox) on a fresh embedded database, logs a
 *    person in through the API (code from the dev SMS outbox) and saves the demo application form,
 *    which matches several seeded lenders,
 * 3. opens each route in Debian's Chromium (375×812) — the form and the authorise page logged in, the
 *    authorise page with that match result — checks it is the page asked for (not a redirect to the
 *    login page, the form or the lenders shown) and lists the JavaScript and CSS it loads on first visit
 *    with their gzip and brotli sizes (what a phone downloads),
 * 4. runs Lighthouse 12 (mobile preset: slow 4G, CPU ×4) `--runs` times per route and method (simulate,
 *    devtools) and prints the performance score, LCP, FCP, TBT, CLS, TTI and the spread over the runs.
 *    / and /login are a first visit (Lighthouse resets the storage). The form and the authorise page
 *    run in a Chromium profile in the state the H5 leaves after the demo channel's landing and a login
 *    (channel, colours, device fingerprint, session in localStorage), a fresh copy per run with an
 *    empty HTTP cache, Lighthouse's storage reset off; a report whose final URL is not the route asked
 *    for, or that saw a 401 from the API, fails the run.
 * Writes everything (and each Lighthouse report) to bench/results/web-<date>/. `WEB_DIST=<dir>` with
 * `--no-build` measures another build (e.g. of an earlier commit) with today's server.
 * Goals (issue 8): performance ≥ 95 and LCP ≤ 1.8 s on every route in both methods; first-load JS of
 * / and /login ≤ 150 KB gzipped. CLS < 0.05 (issue 3). Accessibility ≥ 95 on every route (issue 17;
 * `--categories accessibility` also lists each failing audit with the elements it names).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { DEMO_FORM, freePort } from './lib.mjs';

const ROOT = resolve(import.meta.dirname, '..');
// WEB_DIST (also read by the server) measures another build, e.g. of an earlier commit.
const WEB_DIST = process.env.WEB_DIST ?? join(ROOT, 'apps/web/dist');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const LIGHTHOUSE = 'lighthouse@12.2.3';
const FORM = '/fill-information';
const AUTHORIZE = '/fill-information/common-authorize';

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    'no-lighthouse': { type: 'boolean', default: false },
    routes: {
      type: 'string',
      default: `/,/login,/getQuota,${FORM},${AUTHORIZE},/credit-process/identity-verification,/my`,
    },
    'lighthouse-routes': { type: 'string', default: `/,/login,${FORM},${AUTHORIZE}` },
    methods: { type: 'string', default: 'simulate,devtools' },
    runs: { type: 'string', default: '2' },
    categories: { type: 'string', default: 'performance' },
  },
});
const CATEGORIES = values.categories.split(',');
const PERFORMANCE = CATEGORIES.includes('performance');
const ACCESSIBILITY = CATEGORIES.includes('accessibility');
if (!CATEGORIES.every((c) => c === 'performance' || c === 'accessibility')) {
  throw new Error('--categories: performance and/or accessibility');
}
/** The path of a route that may carry a query (`/login?adChannelCode=demo-skin8` → `/login`). */
const pathOf = (route) => route.split('?')[0];
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs must be a positive integer');

/** Routes that need the logged-in person (and, for the authorise page, a match result). */
const LOGGED_IN_PATHS = new Set([FORM, AUTHORIZE, '/credit-process/identity-verification', '/my']);
const LOGGED_IN = { has: (route) => LOGGED_IN_PATHS.has(pathOf(route)) };

const kb = (n) => (n / 1024).toFixed(1);

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
      // The dev SMS outbox (GET /api/dev/sms-outbox) exists outside production only.
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/user/health`)).ok) return { url, child };
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill();
  throw new Error('server did not start');
}

async function api(url, path, { body, token } = {}) {
  const res = await fetch(url + path, {
    method: body ? 'POST' : 'GET',
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { accessToken: token } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = await res.json();
  if (envelope.code !== 200) throw new Error(`${path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** The offered products in a save answer (a list of {id, productName} somewhere in it). */
function findOffers(data) {
  if (Array.isArray(data)) return data.length && data.every((x) => x?.id && x.productName) ? data : null;
  if (data && typeof data === 'object') {
    for (const v of Object.values(data)) {
      const found = findOffers(v);
      if (found) return found;
    }
  }
  return null;
}

/** A person logged in on the demo channel (as the journeys do) who saved the form, and the match. */
async function preparePerson(url) {
  const phone = `139${String(Date.now()).slice(-8)}`;
  await api(url, '/api/login/sendPhoneVerifyCode', { body: { phone } });
  const [sms] = await api(url, `/api/dev/sms-outbox?phone=${phone}`);
  const login = await api(url, '/api/login', {
    body: { mobile: phone, code: sms.code, adChannelCode: 'demo', abTestType: 17 },
  });
  const match = await api(url, '/api/user/info/save', { token: login.token, body: DEMO_FORM });
  const offers = findOffers(match);
  if (!offers) throw new Error(`the demo form matched nothing: ${JSON.stringify(match)}`);
  return {
    token: login.token,
    uid: login.loginUser.uid,
    phone,
    match,
    offerNames: offers.map((o) => o.productName),
  };
}

/** The localStorage entries of a logged-in person on the demo channel, as the H5 writes them. */
const loginStorage = (person) => ({
  ad_channel_code: 'demo',
  TOKEN: person.token,
  user_uid: String(person.uid),
  user_phone: person.phone,
});

/**
 * What to open for a route: the authorise page gets the match as a re-match link carries it
 * (`?options={"rqResult":…}`, spec §4 step 6; the in-app journey keeps it in sessionStorage, which does
 * not survive into a new tab), and what must be on the page for it to be the page asked for.
 */
function visitOf(route, person) {
  if (pathOf(route) === AUTHORIZE) {
    const options = encodeURIComponent(JSON.stringify({ adChannelCode: 'demo', rqResult: person.match }));
    return { path: `${AUTHORIZE}?options=${options}`, mustShow: person.offerNames[0] };
  }
  if (pathOf(route) === FORM) return { path: route, mustShow: '职业身份' };
  return { path: route, mustShow: null };
}

function assetSizes(pathname) {
  const file = join(WEB_DIST, pathname);
  if (!existsSync(file)) return null;
  const raw = readFileSync(file);
  const br = existsSync(`${file}.br`) ? readFileSync(`${file}.br`).length : null;
  return { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length, br };
}

async function firstLoad(browser, url, route, person) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
  });
  const loggedIn = LOGGED_IN.has(route);
  if (loggedIn) {
    await context.addInitScript((entries) => {
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
    }, loginStorage(person));
  }
  const page = await context.newPage();
  const assets = new Map();
  page.on('response', (res) => {
    const u = new URL(res.url());
    if (u.origin !== url) return;
    const type = res.request().resourceType();
    if (type === 'script' || type === 'stylesheet') assets.set(u.pathname, type);
  });
  const visit = visitOf(route, person);
  await page.goto(url + visit.path, { waitUntil: 'networkidle' });
  const finalPath = new URL(page.url()).pathname;
  if (loggedIn && finalPath !== pathOf(route)) {
    throw new Error(`${route}: the browser ended on ${finalPath}, not the page asked for`);
  }
  if (visit.mustShow) {
    await page
      .getByText(visit.mustShow)
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => {
        throw new Error(`${route}: "${visit.mustShow}" is not on the page`);
      });
  }
  await context.close();
  const rows = [...assets].map(([path, type]) => ({ path, type, ...assetSizes(path) }));
  const sum = (type, key) => rows.filter((r) => r.type === type).reduce((n, r) => n + (r[key] ?? 0), 0);
  return {
    route,
    finalPath,
    loggedIn,
    jsFiles: rows.filter((r) => r.type === 'script').length,
    jsGzip: sum('script', 'gzip'),
    jsBr: sum('script', 'br'),
    cssGzip: sum('stylesheet', 'gzip'),
    files: rows,
  };
}

/**
 * A Chromium profile in the state the H5 leaves on a phone that came from an ad link and logged in:
 * the landing of the demo channel visited (the app stored the channel, its colours and the device
 * fingerprint), then the session as the login stores it. The HTTP cache is emptied afterwards, so
 * each Lighthouse run (on a copy) loads every file again. Answers the directory and the stored keys.
 */
async function loggedInProfile(url, person) {
  const dir = mkdtempSync(join(tmpdir(), 'lm-bench-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROME,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  let keys;
  try {
    const page = await context.newPage();
    await page.goto(`${url}/?adChannelCode=demo`);
    // The fingerprint is computed once per device, a few seconds after the landing went idle.
    await page.waitForFunction(() => localStorage.getItem('VISITORID'), null, { timeout: 60_000 });
    await page.evaluate((e) => {
      for (const [k, v] of Object.entries(e)) localStorage.setItem(k, v);
    }, loginStorage(person));
    keys = await page.evaluate(() => Object.keys(localStorage).sort());
    if ((await page.evaluate(() => localStorage.getItem('TOKEN'))) !== person.token) {
      throw new Error('the session did not get into the profile');
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
  } finally {
    await context.close();
  }
  return { dir, keys };
}

/**
 * Lighthouse 12 with this Chromium now and then loses the trace's navigation start (NO_NAVSTART,
 * "Please run Lighthouse again"): such a run measured nothing and is run again (twice at most).
 */
function lighthouse(url, method, profile, outDir, name) {
  for (let attempt = 1; ; attempt++) {
    try {
      return lighthouseOnce(url, method, profile, outDir, name);
    } catch (error) {
      if (!error.noNavStart || attempt === 3) throw error;
      console.error(`${name}: no navigation start in the trace; run again (${attempt + 1}/3)`);
    }
  }
}

function lighthouseOnce(url, method, profile, outDir, name) {
  const out = join(outDir, `${name}.json`);
  const args = [
    '--yes',
    LIGHTHOUSE,
    url,
    `--only-categories=${CATEGORIES.join(',')}`,
    '--output=json',
    `--output-path=${out}`,
    '--quiet',
    `--throttling-method=${method}`,
  ];
  let runProfile = null;
  if (profile) {
    // A fresh copy per run: the session is there, the HTTP cache is cold.
    runProfile = mkdtempSync(join(tmpdir(), 'lm-bench-lh-'));
    cpSync(profile, runProfile, { recursive: true });
    args.push(
      '--disable-storage-reset',
      `--chrome-flags=${[...CHROME_FLAGS, `--user-data-dir=${runProfile}`].join(' ')}`,
    );
  } else {
    args.push(`--chrome-flags=${CHROME_FLAGS.join(' ')}`);
  }
  const load = loadavg()[0];
  try {
    const run = spawnSync('npx', args, {
      env: { ...process.env, CHROME_PATH: CHROME },
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: 300_000,
    });
    // npm's warnings about this machine's npmrc are noise; Lighthouse's own messages are not.
    const stderr = run.stderr
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('npm warn'))
      .join('\n');
    if (stderr) console.error(stderr);
    if (run.status !== 0) {
      const error = new Error(`${name}: Lighthouse exited with ${run.status ?? run.signal}`);
      error.noNavStart = stderr.includes('NO_NAVSTART');
      throw error;
    }
  } finally {
    if (runProfile) rmSync(runProfile, { recursive: true, force: true });
  }
  const report = JSON.parse(readFileSync(out, 'utf8'));
  if (report.runtimeError)
    throw new Error(`${name}: ${report.runtimeError.code} ${report.runtimeError.message}`);
  const a = report.audits;
  return { ...summarise(report, a), load1: Number(load.toFixed(2)), report: out };
}

function summarise(report, a) {
  const accessibility = ACCESSIBILITY ? accessibilityOf(report, a) : {};
  if (!PERFORMANCE) {
    return { finalUrl: report.finalDisplayedUrl, ...accessibility, unauthorised: unauthorisedOf(a) };
  }
  const requests = a['network-requests']?.details?.items ?? [];
  const lcpElement = a['largest-contentful-paint-element']?.details?.items ?? [];
  const lcpNode = lcpElement[0]?.items?.[0]?.node;
  const phases = Object.fromEntries((lcpElement[1]?.items ?? []).map((p) => [p.phase, Math.round(p.timing)]));
  return {
    finalUrl: report.finalDisplayedUrl,
    score: Math.round(report.categories.performance.score * 100),
    lcpMs: Math.round(a['largest-contentful-paint'].numericValue),
    fcpMs: Math.round(a['first-contentful-paint'].numericValue),
    tbtMs: Math.round(a['total-blocking-time'].numericValue),
    cls: Number(a['cumulative-layout-shift'].numericValue.toFixed(3)),
    speedIndexMs: Math.round(a['speed-index'].numericValue),
    ttiMs: Math.round(a.interactive?.numericValue ?? Number.NaN),
    lcpElement: lcpNode ? `${lcpNode.selector} ${lcpNode.snippet}`.slice(0, 200) : null,
    lcpPhases: phases,
    renderBlocking: (a['render-blocking-resources']?.details?.items ?? []).map((i) => i.url),
    mainThreadMs: Math.round(a['mainthread-work-breakdown']?.numericValue ?? 0),
    scriptKB: Number(
      kb(requests.filter((r) => r.resourceType === 'Script').reduce((n, r) => n + (r.transferSize ?? 0), 0)),
    ),
    unauthorised: unauthorisedOf(a),
    ...accessibility,
  };
}

const unauthorisedOf = (a) =>
  (a['network-requests']?.details?.items ?? []).filter((r) => r.statusCode === 401).map((r) => r.url);

/** The accessibility score and each failing audit with (up to 5 of) the elements it names. */
function accessibilityOf(report, a) {
  const failing = report.categories.accessibility.auditRefs
    .filter((ref) => ref.weight > 0 && a[ref.id]?.score === 0)
    .map((ref) => ({
      id: ref.id,
      elements: (a[ref.id].details?.items ?? [])
        .slice(0, 5)
        .map((i) =>
          `${i.node?.selector ?? ''} ${i.node?.explanation?.split('\n').slice(-1)[0] ?? ''}`.trim(),
        ),
    }));
  return { a11y: Math.round(report.categories.accessibility.score * 100), a11yFailing: failing };
}

const spread = (xs) => {
  const min = Math.min(...xs);
  const max = Math.max(...xs);
  return min === max ? String(min) : `${min}–${max}`;
};

async function main() {
  if (!values['no-build']) {
    console.log('building the front ends …');
    if (process.env.WEB_DIST) throw new Error('WEB_DIST is set: measure that build with --no-build');
    execFileSync('npm', ['run', 'build:ui'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const { url, child } = await startServer();
  const date = new Date().toISOString();
  const outDir = join(ROOT, 'bench/results', `web-${date.replace(/[:.]/g, '-')}`);
  mkdirSync(outDir, { recursive: true });
  const results = {
    date,
    node: process.version,
    runs: RUNS,
    webDist: WEB_DIST,
    routes: [],
    lighthouse: [],
    summary: [],
  };
  const profiles = [];
  try {
    const person = await preparePerson(url);
    console.log(`logged in ${person.phone}; the demo form matched ${person.offerNames.join(', ')}`);
    const browser = await chromium.launch({
      executablePath: CHROME,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      for (const route of values.routes.split(',')) {
        results.routes.push(await firstLoad(browser, url, route, person));
      }
    } finally {
      await browser.close();
    }
    console.log('\nFirst visit: JavaScript and CSS loaded (sizes as sent compressed)');
    console.log('route'.padEnd(52), 'js files', 'js gzip KB', 'js br KB', 'css gzip KB');
    for (const r of results.routes) {
      console.log(
        (r.route + (r.loggedIn ? ' (logged in)' : '')).padEnd(52),
        String(r.jsFiles).padStart(8),
        kb(r.jsGzip).padStart(10),
        kb(r.jsBr).padStart(8),
        kb(r.cssGzip).padStart(11),
      );
    }
    if (!values['no-lighthouse']) {
      const lhRoutes = values['lighthouse-routes'].split(',');
      const methods = values.methods.split(',');
      const prepared = lhRoutes.some((r) => LOGGED_IN.has(r)) ? await loggedInProfile(url, person) : null;
      const profile = prepared?.dir ?? null;
      if (profile) {
        profiles.push(profile);
        results.profileKeys = prepared.keys;
        console.log(`\nlogged-in profile: localStorage ${prepared.keys.join(', ')}; HTTP cache emptied`);
      }
      console.log(
        `\nLighthouse ${LIGHTHOUSE.split('@')[1]}, mobile preset (slow 4G: 150 ms RTT, 1.6 Mbps, CPU ×4), Debian Chromium`,
      );
      console.log('  simulate = Lantern estimate from an unthrottled load (Lighthouse default)');
      console.log('  devtools = the same slow-4G profile applied to the browser and measured');
      console.log(
        '  JS KB = script bytes transferred in the run; load = 1-minute load average when it started (2 cores)',
      );
      console.log(
        'route'.padEnd(48),
        'method'.padEnd(9),
        'run',
        ...(PERFORMANCE ? ['score', 'LCP ms', 'FCP ms', 'TBT ms', '  CLS', 'SI ms', 'JS KB', 'load'] : []),
        ...(ACCESSIBILITY ? ['a11y'] : []),
      );
      for (let run = 1; run <= RUNS; run++) {
        for (const route of lhRoutes) {
          for (const method of methods) {
            const loggedIn = LOGGED_IN.has(route);
            const visit = visitOf(route, person);
            const name = `${route === '/' ? 'root' : route.slice(1).replace(/\W+/g, '_')}-${method}-${run}`;
            const r = {
              route,
              method,
              run,
              loggedIn,
              ...lighthouse(url + visit.path, method, loggedIn ? profile : null, outDir, name),
            };
            const finalPath = new URL(r.finalUrl).pathname;
            if (finalPath !== pathOf(route)) {
              throw new Error(
                `${route} (${method}): Lighthouse measured ${r.finalUrl}, not the page asked for`,
              );
            }
            if (r.unauthorised.length) {
              throw new Error(`${route} (${method}): the API answered 401 to ${r.unauthorised.join(', ')}`);
            }
            results.lighthouse.push(r);
            console.log(
              (route + (loggedIn ? ' (logged in)' : '')).padEnd(48),
              method.padEnd(9),
              String(run).padStart(3),
              ...(PERFORMANCE
                ? [
                    String(r.score).padStart(5),
                    String(r.lcpMs).padStart(6),
                    String(r.fcpMs).padStart(6),
                    String(r.tbtMs).padStart(6),
                    String(r.cls).padStart(5),
                    String(r.speedIndexMs).padStart(5),
                    String(r.scriptKB).padStart(5),
                    String(r.load1).padStart(4),
                  ]
                : []),
              ...(ACCESSIBILITY ? [String(r.a11y).padStart(4)] : []),
            );
            for (const f of r.a11yFailing ?? []) console.log(`    ${f.id}: ${f.elements.join(' | ')}`);
          }
        }
      }
      if (ACCESSIBILITY) {
        console.log(`\nAccessibility over ${RUNS} run(s), min–max (goal: ≥ 95 in every run)`);
        for (const route of lhRoutes) {
          for (const method of methods) {
            const rs = results.lighthouse.filter((r) => r.route === route && r.method === method);
            const met = rs.every((r) => r.a11y >= 95);
            results.summary.push({
              route,
              method,
              runs: rs.length,
              a11y: rs.map((r) => r.a11y),
              a11yGoalMet: met,
            });
            console.log(
              route.padEnd(48),
              method.padEnd(9),
              spread(rs.map((r) => r.a11y)).padStart(7),
              met ? ' met' : ' MISSED',
            );
          }
        }
      }
      if (PERFORMANCE)
        console.log(
          `\nSpread over ${RUNS} run(s), min–max (goal: score ≥ 95 and LCP ≤ 1800 ms in every run);` +
            ' first-load JS from the table above',
        );
      if (PERFORMANCE)
        console.log(
          'route'.padEnd(36),
          'method'.padEnd(9),
          'score'.padStart(7),
          'LCP ms'.padStart(11),
          'FCP ms'.padStart(11),
          'TBT ms'.padStart(9),
          'CLS'.padStart(5),
          'TTI ms'.padStart(11),
          'JS gz/br KB'.padStart(12),
          ' goal',
        );
      for (const route of PERFORMANCE ? lhRoutes : []) {
        const firstVisit = results.routes.find((r) => r.route === route);
        for (const method of methods) {
          const rs = results.lighthouse.filter((r) => r.route === route && r.method === method);
          const met = rs.every((r) => r.score >= 95 && r.lcpMs <= 1800);
          const summary = {
            route,
            method,
            runs: rs.length,
            score: [Math.min(...rs.map((r) => r.score)), Math.max(...rs.map((r) => r.score))],
            lcpMs: [Math.min(...rs.map((r) => r.lcpMs)), Math.max(...rs.map((r) => r.lcpMs))],
            goalMet: met,
          };
          results.summary.push(summary);
          console.log(
            route.padEnd(36),
            method.padEnd(9),
            spread(rs.map((r) => r.score)).padStart(7),
            spread(rs.map((r) => r.lcpMs)).padStart(11),
            spread(rs.map((r) => r.fcpMs)).padStart(11),
            spread(rs.map((r) => r.tbtMs)).padStart(9),
            String(Math.max(...rs.map((r) => r.cls))).padStart(5),
            spread(rs.map((r) => r.ttiMs)).padStart(11),
            (firstVisit ? `${kb(firstVisit.jsGzip)}/${kb(firstVisit.jsBr)}` : '—').padStart(12),
            met ? ' met' : ' MISSED',
          );
        }
      }
    }
    for (const r of results.routes.filter((x) => x.route === '/' || x.route === '/login')) {
      const met = r.jsGzip <= 150 * 1024;
      console.log(
        `first-load JS of ${r.route}: ${kb(r.jsGzip)} KB gzip (goal ≤ 150 KB): ${met ? 'met' : 'MISSED'}`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    for (const p of profiles) rmSync(p, { recursive: true, force: true });
  }
  const file = join(outDir, 'summary.json');
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nwritten ${file} (and the Lighthouse reports beside it)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
