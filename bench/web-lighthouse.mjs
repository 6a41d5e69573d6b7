// Lighthouse for bench/web.mjs: one run (retried once), its summary (score, LCP, TBT, CLS, accessibility, the
// JavaScript requested before the observed largest paint) and the goals of issue 17.4; and the sizes of the
// build's files as served (gzip of the file on disk).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const kb = (n) => (n / 1024).toFixed(1);

/** Set by web.mjs from its options before the first run. */
export const settings = {
  chrome: '/usr/bin/chromium',
  chromeFlags: [],
  lighthouse: 'lighthouse@12.2.3',
  categories: ['performance', 'accessibility'],
  goals: { score: 95, lcpMs: 1200, cls: 0.05, a11y: 95, jsKB: 130 },
};

/** Sizes of a built file as sent: raw, gzip (level 9, as counted since issue 3) and its .br file. */
export function assetSizes(webDist, pathname) {
  const file = join(webDist, pathname);
  if (!existsSync(file)) return null;
  const raw = readFileSync(file);
  const br = existsSync(`${file}.br`) ? readFileSync(`${file}.br`).length : null;
  return { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length, br };
}

/** The JavaScript among same-origin requests whose request started before `cutoffMs`, with gzip sizes. */
export function jsBefore(requests, cutoffMs, origin, webDist) {
  const paths = new Set();
  let gzip = 0;
  for (const r of requests) {
    const u = new URL(r.url);
    if (u.origin !== origin || !/\.m?js$/.test(u.pathname) || !(r.startMs < cutoffMs)) continue;
    if (paths.has(u.pathname)) continue;
    paths.add(u.pathname);
    gzip += assetSizes(webDist, u.pathname)?.gzip ?? r.transferSize ?? 0;
  }
  return { files: [...paths], gzip };
}

/**
 * Lighthouse 12 with this Chromium now and then loses the trace's navigation start (NO_NAVSTART,
 * "Please run Lighthouse again"): such a run measured nothing and is run again (twice at most).
 */
export function lighthouse(server, target, method, profile, outDir, name) {
  for (let attempt = 1; ; attempt++) {
    try {
      return lighthouseOnce(server, target, method, profile, outDir, name);
    } catch (error) {
      if (!error.noNavStart || attempt === 3) throw error;
      console.error(`${name}: no navigation start in the trace; run again (${attempt + 1}/3)`);
    }
  }
}

function lighthouseOnce(server, target, method, profile, outDir, name) {
  const out = join(outDir, `${name}.json`);
  const args = [
    '--yes',
    settings.lighthouse,
    target,
    `--only-categories=${settings.categories.join(',')}`,
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
      `--chrome-flags=${[...settings.chromeFlags, `--user-data-dir=${runProfile}`].join(' ')}`,
    );
  } else {
    args.push(`--chrome-flags=${settings.chromeFlags.join(' ')}`);
  }
  const load = loadavg()[0];
  try {
    const run = spawnSync('npx', args, {
      env: { ...process.env, CHROME_PATH: settings.chrome },
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
  return { ...summarise(report, server), load1: Number(load.toFixed(2)), report: out };
}

function summarise(report, server) {
  const a = report.audits;
  const accessibility = settings.categories.includes('accessibility') ? accessibilityOf(report, a) : {};
  if (!settings.categories.includes('performance')) {
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
    ...jsBeforeObservedLcp(a, server),
    unauthorised: unauthorisedOf(a),
    ...accessibility,
  };
}

/**
 * The JavaScript requested before the largest paint observed in the run (the page asked for it:
 * `rendererStartTime`, as Lantern places a request): with the devtools method the throttled load as
 * measured; with simulate the unthrottled load whose requests Lantern counts as needed for its LCP.
 * The network-requests audit gives times from the first request, `networkStartTimeTs` being that
 * request's trace timestamp (µs); the metrics audit gives the LCP's trace timestamp.
 */
function jsBeforeObservedLcp(a, server) {
  const net = a['network-requests']?.details;
  const metrics = a.metrics?.details?.items?.[0];
  const base = net?.debugData?.networkStartTimeTs;
  const lcpTs = metrics?.observedLargestContentfulPaintTs;
  if (base === undefined || lcpTs === undefined) return { observedLcpMs: null, jsBeforeLcpGzip: null };
  const requests = (net.items ?? []).map((r) => ({
    url: r.url,
    startMs: r.rendererStartTime,
    transferSize: r.transferSize,
  }));
  const js = jsBefore(requests, (lcpTs - base) / 1000, server.url, server.build.webDist);
  return {
    observedLcpMs: Math.round(metrics.observedLargestContentfulPaint),
    jsBeforeLcpGzip: js.gzip,
    jsBeforeLcp: js.files,
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

/** Per build, route and method: the worst run against each goal (null: that category not measured). */
export function goalsOf(rs, firstVisit) {
  const worstJs = Math.max(...rs.map((r) => r.jsBeforeLcpGzip ?? Number.POSITIVE_INFINITY));
  const goals = {
    score: settings.categories.includes('performance')
      ? rs.every((r) => r.score >= settings.goals.score)
      : null,
    lcp: settings.categories.includes('performance')
      ? rs.every((r) => r.lcpMs <= settings.goals.lcpMs)
      : null,
    cls: settings.categories.includes('performance') ? rs.every((r) => r.cls < settings.goals.cls) : null,
    a11y: settings.categories.includes('accessibility')
      ? rs.every((r) => r.a11y >= settings.goals.a11y)
      : null,
    js: settings.categories.includes('performance') ? worstJs <= settings.goals.jsKB * 1024 : null,
  };
  return {
    goals,
    met: Object.values(goals).every((g) => g !== false),
    missed: Object.entries(goals)
      .filter(([, g]) => g === false)
      .map(([k]) => k),
    worstJsBeforeLcpGzip: settings.categories.includes('performance') ? worstJs : null,
    firstVisitJsBeforeLcpGzip: firstVisit?.jsBeforeLcpGzip ?? null,
  };
}
