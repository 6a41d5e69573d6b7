#!/usr/bin/env node
/**
 * What a visitor from an ad link gets: page weight and speed of the H5 (issues 3, 8, 17).
 *   node bench/web.mjs [--no-build] [--no-lighthouse] [--runs 2] [--routes …] [--lighthouse-routes …]
 *                      [--methods simulate,devtools] [--categories performance,accessibility]
 *                      [--compare <dir>] [--labels before,after] [--first-visit slow4g|none]
 * The default routes are the real ad URLs (issue 17.4): the landing of a channel of each layout (skins 17,
 * 8, 10 and 12), /login and /getQuota with a channel code, a route code, the form and the authorise page.
 * Routes may carry a query (`/login?adChannelCode=demo-skin8`): the page is then checked by its path.
 * 1. builds the front ends (npm run build:ui: Vite, the render module and page templates, pre-compression),
 * 2. starts the real server (development mode: the SMS outbox) on a fresh embedded database, logs a
 *    person in through the API (code from the dev SMS outbox) and saves the demo application form,
 *    which matches several seeded lenders,
 * 3. opens each route in Debian's Chromium (375×812, with Lighthouse's slow-4G profile applied: 562.5 ms
 *    latency, 1.44 Mbit/s, CPU ×4; `--first-visit none` for an unthrottled load) — the form and the
 *    authorise page logged in, the authorise page with that match result — checks it is the page asked
 *    for (not a redirect to the login page, the form or the lenders shown), reads the largest contentful
 *    paint (a PerformanceObserver in the page) and the resource timing, and counts the JavaScript whose
 *    request started before that paint ("first-load JS", gzip as the files compress at level 9), beside
 *    all JavaScript and CSS loaded until the network is idle,
 * 4. runs Lighthouse 12 (mobile preset: slow 4G, CPU ×4) `--runs` times per route and method (simulate,
 *    devtools) and prints the performance score, LCP, FCP, TBT, CLS, the accessibility score and the JS
 *    requested before the LCP observed in that run (what Lantern counts for the simulated LCP), then per
 *    route and method the worst run against each goal.
 *    Landings, /login and the route code are a first visit (Lighthouse resets the storage). The form and
 *    the authorise page run in a Chromium profile in the state the H5 leaves after the demo channel's
 *    landing and a login (channel, colours, device fingerprint, session in localStorage), a fresh copy per
 *    run with an empty HTTP cache, Lighthouse's storage reset off; a report whose final URL is not the
 *    route asked for, or that saw a 401 from the API, fails the run.
 * `--compare <dir>` measures two builds in one run: `<dir>` is either a checkout (its own server and its
 * `apps/web/dist`: a server that renders pages changes with it) or a web dist directory (served by this
 * checkout's server; copy `dist-ssr` beside it, the server's renderer). It is labelled "before", this checkout "after" (`--labels`); each build has its own
 * server and database, and the two alternate route by route (and which goes first alternates), so
 * load on the machine falls on both alike.
 * Writes everything (and each Lighthouse report) to bench/results/web-<date>/. `WEB_DIST=<dir>` with
 * `--no-build` measures another build (e.g. of an earlier commit) with today's server.
 * Goals (issue 17.4), on every route in both methods: performance ≥ 95, LCP ≤ 1.2 s, CLS < 0.05,
 * accessibility ≥ 95, JS requested before the LCP ≤ 130 KB gzipped.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { DEMO_FORM, freePort } from './lib.mjs';
import { assetSizes, goalsOf, jsBefore, lighthouse, settings } from './web-lighthouse.mjs';

const ROOT = resolve(import.meta.dirname, '..');
// WEB_DIST (also read by the server) measures another build, e.g. of an earlier commit.
const WEB_DIST = process.env.WEB_DIST ?? join(ROOT, 'apps/web/dist');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const LIGHTHOUSE = 'lighthouse@12.2.3';
const FORM = '/fill-information';
const AUTHORIZE = '/fill-information/common-authorize';

/**
 * The ad URLs (channels and route code from apps/server/src/modules/channels/seed.ts; layouts from
 * apps/web/src/features/skins/layouts.ts): one channel of each of the four landing layouts.
 */
const AD_ROUTES = [
  '/?adChannelCode=demo-skin17', // hero-card (the default skin), red
  '/?adChannelCode=demo-skin8', // amount-dial, purple
  '/?adChannelCode=demo-skin10', // steps-list, halo blue
  '/?adChannelCode=demo-skin12', // banner-benefits, red
  '/login?adChannelCode=demo', // the default-flow channel (skin 17)
  '/getQuota?adChannelCode=demo-skin8',
  '/?adRouteCode=r-demo', // route code → channel demo, no plan URL
  FORM,
  AUTHORIZE,
];

/** Goals of issue 17.4, on every route in both methods. */
const GOALS = { score: 95, lcpMs: 1200, cls: 0.05, a11y: 95, jsKB: 130 };
settings.goals = GOALS;

/** Lighthouse's mobile slow-4G profile as its devtools method applies it (Lantern constants). */
const SLOW_4G = {
  latency: 150 * 3.75,
  downloadThroughput: Math.floor((1.6 * 1024 * 0.9 * 1024) / 8),
  uploadThroughput: Math.floor((750 * 0.9 * 1024) / 8),
  cpu: 4,
};

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    'no-lighthouse': { type: 'boolean', default: false },
    routes: {
      type: 'string',
      default: [...AD_ROUTES, '/credit-process/identity-verification', '/my'].join(','),
    },
    'lighthouse-routes': { type: 'string', default: AD_ROUTES.join(',') },
    methods: { type: 'string', default: 'simulate,devtools' },
    runs: { type: 'string', default: '2' },
    categories: { type: 'string', default: 'performance,accessibility' },
    compare: { type: 'string' },
    labels: { type: 'string', default: 'before,after' },
    'first-visit': { type: 'string', default: 'slow4g' },
  },
});
const CATEGORIES = values.categories.split(',');
const PERFORMANCE = CATEGORIES.includes('performance');
const ACCESSIBILITY = CATEGORIES.includes('accessibility');
if (!CATEGORIES.every((c) => c === 'performance' || c === 'accessibility')) {
  throw new Error('--categories: performance and/or accessibility');
}
if (!['slow4g', 'none'].includes(values['first-visit'])) throw new Error('--first-visit: slow4g or none');
const THROTTLED = values['first-visit'] === 'slow4g';
/** The path of a route that may carry a query (`/login?adChannelCode=demo-skin8` → `/login`). */
const pathOf = (route) => route.split('?')[0];
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs must be a positive integer');
const LH_ROUTES = values['lighthouse-routes'].split(',').filter(Boolean);
// Every Lighthouse route also gets its first visit, so each has its first-load JS.
const ROUTES = [
  ...new Set([...values.routes.split(',').filter(Boolean), ...(values['no-lighthouse'] ? [] : LH_ROUTES)]),
];
Object.assign(settings, {
  chrome: CHROME,
  chromeFlags: CHROME_FLAGS,
  lighthouse: LIGHTHOUSE,
  categories: CATEGORIES,
});
const METHODS = values.methods.split(',');

/** Routes that need the logged-in person (and, for the authorise page, a match result). */
const LOGGED_IN_PATHS = new Set([
  FORM,
  AUTHORIZE,
  // Pages the app renders that a visitor reloads or opens from a link (issue 46.5; `--routes` to measure them).
  '/credit-process/identity-verification',
  '/my',
  '/my/personal-data',
  '/my/application-record',
  '/my/safe-center',
  '/my/cancel-account',
  '/my/data-sharing',
  '/apply_home',
  '/apply_limit',
  '/apply_auth_form',
  '/apply_auth_photo',
  '/apply_my',
]);
const LOGGED_IN = { has: (route) => LOGGED_IN_PATHS.has(pathOf(route)) };

/**
 * The builds measured: this checkout (or WEB_DIST), and with --compare another checkout (its server
 * and its dist) or another dist (this checkout's server). The compared one comes first ("before").
 */
function buildsOf() {
  const [beforeLabel, afterLabel] = values.labels.split(',');
  if (!values.compare) return [{ label: 'this', root: ROOT, webDist: WEB_DIST }];
  if (!beforeLabel || !afterLabel || beforeLabel === afterLabel) {
    throw new Error('--labels: two different names, the compared build first');
  }
  const dir = resolve(values.compare);
  const checkout = existsSync(join(dir, 'apps/server/src/main.ts'));
  const before = checkout
    ? { label: beforeLabel, root: dir, webDist: join(dir, 'apps/web/dist') }
    : { label: beforeLabel, root: ROOT, webDist: dir };
  for (const b of [before, { webDist: WEB_DIST }]) {
    if (!existsSync(join(b.webDist, 'index.html'))) throw new Error(`no build in ${b.webDist}`);
  }
  return [before, { label: afterLabel, root: ROOT, webDist: WEB_DIST }];
}
const BUILDS = buildsOf();
const COMPARING = BUILDS.length > 1;

const kb = (n) => (n / 1024).toFixed(1);
const spread = (xs) => {
  const min = Math.min(...xs);
  const max = Math.max(...xs);
  return min === max ? String(min) : `${min}–${max}`;
};
const mark = (ok) => (ok ? '✓' : '✗');
const slug = (route) =>
  (route === '/' ? 'root' : route.replace(/^\/\?/, 'root?').replace(/^\//, '')).replace(/\W+/g, '_');

async function startServer(build) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'lm-bench-web-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: build.root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: build.webDist,
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
      // The dev SMS outbox (GET /api/dev/sms-outbox) exists outside production only.
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // Up to 3 minutes: a fresh embedded database migrates and seeds first, slowly on a busy machine.
  for (let i = 0; i < 720 && child.exitCode === null; i++) {
    try {
      if ((await fetch(`${url}/api/user/health`)).ok) return { url, child, dataDir };
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  const exited = child.exitCode;
  await stopServer({ child, dataDir });
  throw new Error(`server (${build.label}) ${exited === null ? 'did not start' : `exited with ${exited}`}`);
}

/** SIGTERM, up to 15 s for the exit, then its database goes. */
async function stopServer({ child, dataDir }) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  }
  rmSync(dataDir, { recursive: true, force: true });
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

/** Records every largest-contentful-paint candidate of the page (in the page, before its scripts). */
function observeLcp() {
  performance.setResourceTimingBufferSize(2000);
  const entries = [];
  Object.defineProperty(window, '__benchLcp', { value: entries });
  const describe = (el) => {
    if (!el) return null;
    const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(/\s+/)[0]}` : '';
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
    return `${el.tagName.toLowerCase()}${cls}${text ? ` "${text}"` : ''}`;
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      entries.push({ startTime: e.startTime, size: e.size, element: describe(e.element) ?? e.url });
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
}

async function firstLoad(browser, server, route) {
  const { url, person, build } = server;
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
  await context.addInitScript(observeLcp);
  const page = await context.newPage();
  if (THROTTLED) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: SLOW_4G.latency,
      downloadThroughput: SLOW_4G.downloadThroughput,
      uploadThroughput: SLOW_4G.uploadThroughput,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_4G.cpu });
  }
  const assets = new Map();
  page.on('response', (res) => {
    const u = new URL(res.url());
    if (u.origin !== url) return;
    const type = res.request().resourceType();
    if (type === 'script' || type === 'stylesheet') assets.set(u.pathname, type);
  });
  let inFlight = 0;
  page.on('request', () => inFlight++);
  page.on('requestfinished', () => inFlight--);
  page.on('requestfailed', () => inFlight--);
  const visit = visitOf(route, person);
  await page.goto(url + visit.path, { waitUntil: 'networkidle', timeout: 120_000 });
  // The network can be idle before the first paint (a landing waiting for its channel's configuration
  // on a slow CPU): wait for a largest paint, then until nothing more is requested or painted for 1.5 s.
  await page.waitForFunction(() => window.__benchLcp.length > 0, null, { timeout: 60_000 }).catch(() => {});
  for (let last = '', i = 0; i < 40; i++) {
    const now = await page.evaluate(
      () => `${performance.getEntriesByType('resource').length} ${window.__benchLcp.length}`,
    );
    if (now === last && inFlight <= 0) break;
    last = now;
    await page.waitForTimeout(1500);
  }
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
  const timing = await page.evaluate(() => ({
    lcp: window.__benchLcp.at(-1) ?? null,
    resources: performance
      .getEntriesByType('resource')
      .map((e) => ({ url: e.name, startMs: e.startTime, transferSize: e.transferSize })),
  }));
  await context.close();
  const rows = [...assets].map(([path, type]) => ({ path, type, ...assetSizes(build.webDist, path) }));
  const sum = (type, key) => rows.filter((r) => r.type === type).reduce((n, r) => n + (r[key] ?? 0), 0);
  // Without a largest paint (nothing painted) every script of the visit counts.
  const beforeLcp = jsBefore(
    timing.resources,
    timing.lcp?.startTime ?? Number.POSITIVE_INFINITY,
    url,
    build.webDist,
  );
  return {
    build: build.label,
    route,
    finalPath,
    loggedIn,
    throttled: THROTTLED,
    lcpMs: timing.lcp ? Math.round(timing.lcp.startTime) : null,
    lcpElement: timing.lcp?.element ?? null,
    jsBeforeLcpFiles: beforeLcp.files.length,
    jsBeforeLcpGzip: beforeLcp.gzip,
    jsBeforeLcp: beforeLcp.files,
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

async function main() {
  if (!values['no-build']) {
    console.log('building the front ends …');
    if (process.env.WEB_DIST) throw new Error('WEB_DIST is set: measure that build with --no-build');
    execFileSync('npm', ['run', 'build:ui'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const date = new Date().toISOString();
  const outDir = join(ROOT, 'bench/results', `web-${date.replace(/[:.]/g, '-')}`);
  mkdirSync(outDir, { recursive: true });
  const results = {
    date,
    node: process.version,
    runs: RUNS,
    goals: GOALS,
    firstVisitThrottling: THROTTLED ? SLOW_4G : null,
    builds: BUILDS,
    webDist: WEB_DIST,
    routes: [],
    lighthouse: [],
    summary: [],
  };
  const servers = [];
  const profiles = [];
  try {
    for (const build of BUILDS) {
      const server = { build, ...(await startServer(build)) };
      servers.push(server);
      server.person = await preparePerson(server.url);
      // The server's request-time renderer (ADR 017) is the web build's dist-ssr beside its dist: a copied
      // dist without it serves the authorise page as index.html, for the app to render.
      const ssr = join(build.webDist, '../dist-ssr/prerender.js');
      console.log(
        `${build.label}: ${build.webDist} served by ${build.root} at ${server.url}; logged in ${server.person.phone}; ` +
          `the demo form matched ${server.person.offerNames.join(', ')}` +
          (existsSync(ssr) ? '' : `; WARNING: no ${ssr}: nothing is rendered by the server`),
      );
    }
    // The servers in the order of the i-th measurement: alternating, so neither always goes first.
    const turn = (i) => (i % 2 === 0 ? servers : [...servers].reverse());
    const browser = await chromium.launch({
      executablePath: CHROME,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      for (const [i, route] of ROUTES.entries()) {
        for (const server of turn(i)) results.routes.push(await firstLoad(browser, server, route));
      }
    } finally {
      await browser.close();
    }
    printFirstVisits(results.routes);
    if (!values['no-lighthouse']) {
      if (LH_ROUTES.some((r) => LOGGED_IN.has(r))) {
        for (const server of servers) {
          const prepared = await loggedInProfile(server.url, server.person);
          server.profile = prepared.dir;
          profiles.push(prepared.dir);
          results.profileKeys = prepared.keys;
        }
        console.log(
          `\nlogged-in profile: localStorage ${results.profileKeys.join(', ')}; HTTP cache emptied`,
        );
      }
      console.log(
        `\nLighthouse ${LIGHTHOUSE.split('@')[1]}, mobile preset (slow 4G: 150 ms RTT, 1.6 Mbps, CPU ×4), Debian Chromium`,
      );
      console.log('  simulate = Lantern estimate from an unthrottled load (Lighthouse default)');
      console.log('  devtools = the same slow-4G profile applied to the browser and measured');
      console.log(
        '  JS KB = script bytes transferred in the run; JS<LCP = gzip KB of the scripts requested before the LCP' +
          ' observed in the run; load = 1-minute load average when it started (2 cores)',
      );
      console.log(
        'route'.padEnd(48),
        ...(COMPARING ? ['build'.padEnd(7)] : []),
        'method'.padEnd(9),
        'run',
        ...(PERFORMANCE
          ? ['score', 'LCP ms', 'FCP ms', 'TBT ms', '  CLS', 'SI ms', 'JS KB', 'JS<LCP', 'load']
          : []),
        ...(ACCESSIBILITY ? ['a11y'] : []),
      );
      let i = 0;
      for (let run = 1; run <= RUNS; run++) {
        for (const route of LH_ROUTES) {
          for (const method of METHODS) {
            for (const server of turn(i++)) {
              const loggedIn = LOGGED_IN.has(route);
              const visit = visitOf(route, server.person);
              const name = `${COMPARING ? `${server.build.label}-` : ''}${slug(route)}-${method}-${run}`;
              const r = {
                build: server.build.label,
                route,
                method,
                run,
                loggedIn,
                ...lighthouse(
                  server,
                  server.url + visit.path,
                  method,
                  loggedIn ? server.profile : null,
                  outDir,
                  name,
                ),
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
              printRun(r);
            }
          }
        }
      }
      printGoals(results);
    }
  } finally {
    await Promise.all(servers.map(stopServer));
    for (const p of profiles) rmSync(p, { recursive: true, force: true });
  }
  const file = join(outDir, 'summary.json');
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nwritten ${file} (and the Lighthouse reports beside it)`);
}

function printFirstVisits(rows) {
  console.log(
    `\nFirst visit (${THROTTLED ? 'slow 4G and CPU ×4 as Lighthouse devtools applies them' : 'unthrottled'}): ` +
      'the largest paint (PerformanceObserver), JS requested before it (first-load JS, goal ≤ ' +
      `${GOALS.jsKB} KB gzip), and all JavaScript and CSS loaded until the network is idle`,
  );
  console.log(
    'route'.padEnd(52),
    ...(COMPARING ? ['build'.padEnd(7)] : []),
    'LCP ms',
    '<LCP files',
    '<LCP gz KB',
    'js files',
    'js gzip KB',
    'js br KB',
    'css gzip KB',
    ' LCP element',
  );
  for (const r of rows) {
    console.log(
      (r.route + (r.loggedIn ? ' (logged in)' : '')).padEnd(52),
      ...(COMPARING ? [r.build.padEnd(7)] : []),
      String(r.lcpMs ?? '—').padStart(6),
      String(r.jsBeforeLcpFiles).padStart(10),
      `${kb(r.jsBeforeLcpGzip)} ${mark(r.jsBeforeLcpGzip <= GOALS.jsKB * 1024)}`.padStart(10),
      String(r.jsFiles).padStart(8),
      kb(r.jsGzip).padStart(10),
      kb(r.jsBr).padStart(8),
      kb(r.cssGzip).padStart(11),
      ` ${r.lcpElement ?? ''}`,
    );
  }
}

function printRun(r) {
  console.log(
    (r.route + (r.loggedIn ? ' (logged in)' : '')).padEnd(48),
    ...(COMPARING ? [r.build.padEnd(7)] : []),
    r.method.padEnd(9),
    String(r.run).padStart(3),
    ...(PERFORMANCE
      ? [
          String(r.score).padStart(5),
          String(r.lcpMs).padStart(6),
          String(r.fcpMs).padStart(6),
          String(r.tbtMs).padStart(6),
          String(r.cls).padStart(5),
          String(r.speedIndexMs).padStart(5),
          String(r.scriptKB).padStart(5),
          (r.jsBeforeLcpGzip === null ? '—' : kb(r.jsBeforeLcpGzip)).padStart(6),
          String(r.load1).padStart(4),
        ]
      : []),
    ...(ACCESSIBILITY ? [String(r.a11y).padStart(4)] : []),
  );
  for (const f of r.a11yFailing ?? []) console.log(`    ${f.id}: ${f.elements.join(' | ')}`);
}

function printGoals(results) {
  console.log(
    `\nGoals over ${RUNS} run(s), min–max (✓/✗ for the worst run): score ≥ ${GOALS.score}, LCP ≤ ${GOALS.lcpMs} ms,` +
      ` CLS < ${GOALS.cls}, accessibility ≥ ${GOALS.a11y}, JS requested before the LCP ≤ ${GOALS.jsKB} KB gzip` +
      ' (that method\'s runs; "first" = the first visit above)',
  );
  console.log(
    'route'.padEnd(36),
    ...(COMPARING ? ['build'.padEnd(7)] : []),
    'method'.padEnd(9),
    ...(PERFORMANCE
      ? ['score'.padStart(9), 'LCP ms'.padStart(13), 'FCP ms'.padStart(11), 'TBT ms'.padStart(9)]
      : []),
    ...(PERFORMANCE ? ['CLS'.padStart(7)] : []),
    ...(ACCESSIBILITY ? ['a11y'.padStart(8)] : []),
    ...(PERFORMANCE ? ['JS<LCP KB'.padStart(11), 'first'.padStart(6)] : []),
    ' goals',
  );
  for (const route of LH_ROUTES) {
    for (const method of METHODS) {
      for (const build of BUILDS) {
        const rs = results.lighthouse.filter(
          (r) => r.route === route && r.method === method && r.build === build.label,
        );
        if (!rs.length) continue;
        const firstVisit = results.routes.find((r) => r.route === route && r.build === build.label);
        const g = goalsOf(rs, firstVisit);
        results.summary.push({
          build: build.label,
          route,
          method,
          runs: rs.length,
          ...(PERFORMANCE
            ? {
                score: [Math.min(...rs.map((r) => r.score)), Math.max(...rs.map((r) => r.score))],
                lcpMs: [Math.min(...rs.map((r) => r.lcpMs)), Math.max(...rs.map((r) => r.lcpMs))],
                cls: Math.max(...rs.map((r) => r.cls)),
              }
            : {}),
          ...(ACCESSIBILITY
            ? { a11y: [Math.min(...rs.map((r) => r.a11y)), Math.max(...rs.map((r) => r.a11y))] }
            : {}),
          ...g,
        });
        console.log(
          route.padEnd(36),
          ...(COMPARING ? [build.label.padEnd(7)] : []),
          method.padEnd(9),
          ...(PERFORMANCE
            ? [
                `${spread(rs.map((r) => r.score))} ${mark(g.goals.score)}`.padStart(9),
                `${spread(rs.map((r) => r.lcpMs))} ${mark(g.goals.lcp)}`.padStart(13),
                spread(rs.map((r) => r.fcpMs)).padStart(11),
                spread(rs.map((r) => r.tbtMs)).padStart(9),
                `${Math.max(...rs.map((r) => r.cls))} ${mark(g.goals.cls)}`.padStart(7),
              ]
            : []),
          ...(ACCESSIBILITY ? [`${spread(rs.map((r) => r.a11y))} ${mark(g.goals.a11y)}`.padStart(8)] : []),
          ...(PERFORMANCE
            ? [
                `${Number.isFinite(g.worstJsBeforeLcpGzip) ? kb(g.worstJsBeforeLcpGzip) : '—'} ${mark(g.goals.js)}`.padStart(
                  11,
                ),
                (firstVisit ? kb(firstVisit.jsBeforeLcpGzip) : '—').padStart(6),
              ]
            : []),
          g.met ? ' met' : ` MISSED (${g.missed.join(', ')})`,
        );
      }
    }
  }
  for (const build of BUILDS) {
    const rows = results.summary.filter((s) => s.build === build.label);
    console.log(
      `${COMPARING ? `${build.label}: ` : ''}goals met on ${rows.filter((s) => s.met).length} of ${rows.length} route × method`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
