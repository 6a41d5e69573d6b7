#!/usr/bin/env node
/**
 * The main thread's long tasks after the first contentful paint of an H5 page (issue 17.4): what Total
 * Blocking Time is made of. Loads each route in Debian's Chromium (375×812, unthrottled) with a Chrome
 * trace, and prints every task of the page's main thread whose **thread time ×4** exceeds 50 ms (Lighthouse's
 * simulate method scales the tasks of an unthrottled load by its CPU multiplier, 4; thread time rather than
 * wall time, so other processes on a shared machine do not lengthen the tasks), with what ran in it, and the
 * sum of (duration − 50 ms) after the first contentful paint — a load-independent proxy for TBT (it leaves
 * out what Lantern adds for the network and what wall time adds on a busy machine).
 *   node bench/long-tasks.mjs --url http://127.0.0.1:8080 [--routes '/?adChannelCode=demo-skin8,/login'] \
 *        [--runs 2] [--storage storage.json] [--throttle] [--wait 4000]
 * `--storage` is a JSON object of localStorage entries set before the load (a logged-in person: TOKEN,
 * user_uid …, as bench/web.mjs prepares them). `--throttle` applies CPU ×4 in the browser instead and
 * reports wall time (what the devtools method sees). The page is loaded a few seconds (`--wait`): the
 * fingerprint starts 3 s after the load (ADR 018) and its tasks count too.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    routes: { type: 'string', default: '/?adChannelCode=demo-skin17' },
    runs: { type: 'string', default: '2' },
    storage: { type: 'string' },
    throttle: { type: 'boolean', default: false },
    wait: { type: 'string', default: '4000' },
  },
});
if (!values.url) throw new Error('--url: the server to load the pages from');
const CPU = 4;
const storage = values.storage ? JSON.parse(readFileSync(values.storage, 'utf8')) : null;
/** What a task spent its time on (trace event names). */
const KINDS = new Set([
  'v8.evaluateModule',
  'EvaluateScript',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'RunMicrotasks',
  'ParseHTML',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'MajorGC',
  'MinorGC',
]);

async function measure(browser, route) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  if (storage) {
    await page.goto(`${values.url}/api/user/health`);
    await page.evaluate((entries) => {
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, String(v));
    }, storage);
  }
  const cdp = await context.newCDPSession(page);
  if (values.throttle) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    categories:
      'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing,loading',
    transferMode: 'ReportEvents',
  });
  await page.goto(values.url + route, { waitUntil: 'load' });
  await page.waitForTimeout(Number(values.wait));
  await cdp.send('Tracing.end');
  await complete;
  const handedOver = await page.evaluate(() => !document.getElementById('lm-shell'));
  await context.close();

  const nav = events.find(
    (e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'),
  );
  if (!nav) throw new Error(`${route}: no navigation in the trace`);
  const main = (e) => e.pid === nav.pid && e.tid === nav.tid;
  const fcp = events.find((e) => main(e) && e.name === 'firstContentfulPaint');
  // Thread time ×4 (simulate's view) or wall time under CPU throttling (devtools' view).
  const duration = (e) => (values.throttle ? e.dur : (e.tdur ?? e.dur) * CPU);
  const slices = events.filter((e) => main(e) && e.ph === 'X');
  const tasks = slices.filter((e) => e.name === 'RunTask' && duration(e) > 50_000 && fcp && e.ts > fcp.ts);
  const described = tasks.map((task) => {
    const spent = new Map();
    for (const e of slices) {
      if (!KINDS.has(e.name) || e.ts < task.ts || e.ts + e.dur > task.ts + task.dur) continue;
      const file = (e.args?.data?.url || e.args?.data?.functionName || '').split('/').pop().split('?')[0];
      const key = file ? `${e.name} ${file}` : e.name;
      spent.set(key, (spent.get(key) ?? 0) + duration(e));
    }
    const top = [...spent]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 2)
      .map(([k, v]) => `${k} ${Math.round(v / 1000)}`);
    return { at: Math.round((task.ts - nav.ts) / 1000), ms: Math.round(duration(task) / 1000), top };
  });
  return {
    fcpMs: fcp ? Math.round((fcp.ts - nav.ts) / 1000) : null,
    blockingMs: described.reduce((sum, t) => sum + t.ms - 50, 0),
    tasks: described,
    handedOver,
  };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  console.log(
    `long tasks after FCP (${values.throttle ? 'wall time at CPU ×4' : 'thread time ×4'}), ${values.url}`,
  );
  for (const route of values.routes.split(',').filter(Boolean)) {
    for (let run = 1; run <= Number(values.runs); run++) {
      const r = await measure(browser, route);
      const tasks = r.tasks.map((t) => `${t.ms} ms @${t.at} (${t.top.join(', ')})`).join('; ') || 'none';
      console.log(
        `${route} run ${run}: FCP ${r.fcpMs} ms, Σ(task − 50) ${r.blockingMs} ms${r.handedOver ? '' : ' [app did not take over]'}: ${tasks}`,
      );
    }
  }
} finally {
  await browser.close();
}
