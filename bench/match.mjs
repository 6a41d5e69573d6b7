#!/usr/bin/env node
// Speed of the pure matching function `match()` (apps/server/src/modules/matching/match.ts) for
// 100, 1 000 and 10 000 generated products. See bench/README.md, section "match".
//
//   node bench/match.mjs [--sizes 100,1000,10000] [--calls 300] [--warmup 100] [--seed 42]
//                        [--scenario default,all,fresh] [--module path/to/match.ts] [--json]
//
// Products, counters and history are generated from a seeded PRNG, so every run measures the same
// input. For each scenario and size the script warms up (`--warmup` calls, not recorded), then times
// `--calls` calls one by one with performance.now() and prints the min, median, p90, p99 and max time per
// call, and how the median and p99 grow from one size to the next (×10 products each step). It also
// prints the time of the first two calls on the list (see below).
//
// Scenarios:
//   default  maxLendersPerPeriod left at its default (3); the same product objects on every call, in a
//            new array (as the match service passes its cached catalogue: catalog.map((e) => e.engine))
//   all      as default with maxLendersPerPeriod = products.length (as the match service calls it): the
//            best product of every lender offered and ranked, for the caller to reserve caps in order
//   fresh    as default, but every call gets its own copy of the products, made by a JSON round trip
//            outside the timed section: new objects, strings and arrays, as a request that reads the
//            products from the database gets (node-postgres parses jsonb with JSON.parse)
//
// match() builds a table of a list of products the second time it sees the same products in the same
// order (see match.ts), so the warm-up of default and all includes that; fresh never gets there. --module times another version of
// match.ts (e.g. an older one copied next to its publish.ts and types.ts) on the same input.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000,10000' },
    calls: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '100' },
    seed: { type: 'string', default: '42' },
    scenario: { type: 'string', default: 'default,all,fresh' },
    module: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(
    'usage: node bench/match.mjs [--sizes 100,1000,10000] [--calls n] [--warmup n] [--seed n] [--scenario default,all,fresh] [--module path] [--json]',
  );
  process.exit(0);
}
const SIZES = args.sizes.split(',').map(Number);
const CALLS = Number(args.calls);
const WARMUP = Number(args.warmup);
const SEED = Number(args.seed);
const SCENARIOS = args.scenario.split(',');
for (const s of SCENARIOS) {
  if (!['default', 'all', 'fresh'].includes(s)) {
    console.error(`unknown scenario ${s}; expected default, all or fresh`);
    process.exit(2);
  }
}
if (!SIZES.every((n) => Number.isInteger(n) && n > 0) || !(CALLS > 0) || !(WARMUP >= 0)) {
  console.error('--sizes must be positive integers, --calls positive, --warmup non-negative');
  process.exit(2);
}

// The engine is TypeScript: load it through tsx, as the server runs (`node --import tsx`).
register();
const matching = path.join(ROOT, 'apps/server/src/modules/matching');
const modulePath = path.resolve(args.module ?? path.join(matching, 'match.ts'));
const { match } = await import(pathToFileURL(modulePath).href);
const { SAMPLE_PROFILE } = await import(pathToFileURL(path.join(matching, 'fixtures.ts')).href);
const { idCardCheckChar } = await import(
  pathToFileURL(path.join(ROOT, 'packages/shared/src/validators/id-card.ts')).href
);

// ---------------------------------------------------------------------------------------------
// deterministic input

/** mulberry32: small, fast, good enough to spread test data. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PROVINCES = ['11', '12', '13', '31', '32', '33', '34', '35', '37', '41', '42', '43', '44', '50', '51'];
/** 4 to 12 prefecture-level cities per province: `pp` + `cc` + `00`. */
const CITIES = PROVINCES.flatMap((p, i) =>
  Array.from({ length: 4 + (i % 9) }, (_, c) => `${p}${String(c + 1).padStart(2, '0')}00`),
);
const JOBS = ['employee', 'selfEmployed', 'businessOwner', 'freelancer'];
const SESAME = ['none', 'below600', '600to650', '650to700', '700plus'];
const CREDIT = ['none', 'good', 'fewOverdues', 'manyOverdues'];
const WINDOWS = [
  { from: '09:00', to: '21:00' },
  { from: '08:00', to: '22:00' },
  { from: '00:00', to: '00:00' },
  { from: '22:00', to: '02:00' },
  { from: '13:00', to: '18:00' },
];
const DAY_MS = 86_400_000;
/** A Sunday noon in Shanghai, inside most windows. */
const NOW = new Date('2026-11-22T12:00:00+08:00');

function generate(n, seed) {
  const rnd = prng(seed);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const chance = (p) => rnd() < p;
  const subset = (list, min, max) => {
    const k = int(min, Math.min(max, list.length));
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, k);
  };

  // About 12 products per lender, as the demo seed has (8 lenders, 20 products) scaled up.
  const lenders = Math.max(8, Math.round(n / 12));
  const products = [];
  for (let i = 0; i < n; i++) {
    const partner = int(1, lenders);
    const rules = {};
    // Most real products declare a handful of rules; a few declare none, a few many.
    if (chance(0.55)) {
      rules.citiesIn = chance(0.3) ? subset(PROVINCES, 1, 6).map((p) => `${p}0000`) : subset(CITIES, 3, 40);
    }
    if (chance(0.15)) rules.citiesOut = subset(CITIES, 1, 5);
    if (chance(0.7)) {
      rules.ageMin = int(18, 25);
      rules.ageMax = int(45, 60);
    }
    if (chance(0.5)) {
      rules.amountMinFen = pick([100_000, 500_000, 1_000_000, 2_000_000]);
      rules.amountMaxFen = pick([5_000_000, 10_000_000, 20_000_000, 50_000_000]);
    }
    if (chance(0.3)) rules.jobs = subset(JOBS, 1, 3);
    if (chance(0.25)) rules.requireSocialSecurity = true;
    if (chance(0.15)) rules.requireHousingFund = true;
    if (chance(0.05)) rules.requireInsurance = true;
    if (chance(0.1)) rules.requireHouse = true;
    if (chance(0.08)) rules.requireCar = true;
    if (chance(0.4)) rules.sesameMin = pick(SESAME.slice(1));
    if (chance(0.35)) rules.creditRecord = subset(CREDIT, 1, 3);

    const roll = rnd();
    const status = roll < 0.85 ? 'published' : roll < 0.95 ? 'paused' : 'draft';
    const aprRoll = rnd();
    const aprBps = aprRoll < 0.95 ? int(700, 2400) : aprRoll < 0.98 ? int(2401, 3600) : null;
    const amountMinFen = pick([100_000, 300_000, 500_000, 1_000_000]);
    const id = String(100_000 + i * 7 + int(0, 6)); // database ids, not in id order after shuffling
    products.push({
      id,
      productName: `产品${id}`,
      partnerId: String(partner),
      partnerLegalName: chance(0.99) ? `机构${partner}消费金融有限公司` : '',
      companyType: chance(0.5) ? 'KAInstitution' : 'RegionInstitution',
      institutionType: int(1, 4),
      thirdpartyType: 1,
      linkType: int(1, 9),
      amountMinFen,
      amountMaxFen: amountMinFen * pick([10, 20, 50, 100]),
      termMinMonths: pick([1, 3, 6]),
      termMaxMonths: pick([12, 24, 36]),
      aprBps,
      status,
      activeHours: chance(0.5) ? null : chance(0.995) ? pick(WINDOWS) : { from: '9:00', to: '21:00' },
      dailyCap: chance(0.3) ? null : int(20, 500),
      totalCap: chance(0.4) ? null : int(1_000, 50_000),
      priority: int(0, 10),
      priceFen: pick([1000, 2000, 3000, 5000, 8000, 12_000]),
      rules,
    });
  }
  // Input order is not ranking order.
  for (let i = products.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [products[i], products[j]] = [products[j], products[i]];
  }

  // Counters for the products that sold leads: some at or over their caps.
  const counters = {};
  for (const p of products) {
    if (!chance(0.7)) continue;
    const today = p.dailyCap === null ? int(0, 300) : int(0, Math.ceil(p.dailyCap * 1.1));
    const total = Math.max(
      today,
      p.totalCap === null ? int(0, 60_000) : int(0, Math.ceil(p.totalCap * 1.05)),
    );
    counters[p.id] = { today, total };
  }

  // A returning applicant: a few applications over the last 60 days.
  const applications = Array.from({ length: products.length > 0 ? 4 : 0 }, () => {
    const p = products[int(0, products.length - 1)];
    return { productId: p.id, partnerId: p.partnerId, at: new Date(NOW.getTime() - int(0, 60) * DAY_MS) };
  });
  const history = { applications, lendersMatchedInPeriod: 1 };

  const first17 = '44030519950615123'; // born 1995-06-15, Shenzhen
  const profile = { ...SAMPLE_PROFILE, identity: first17 + idCardCheckChar(first17) };
  return { profile, products, counters, history };
}

// ---------------------------------------------------------------------------------------------
// measurement

function quantile(sorted, q) {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

function measure(scenario, n) {
  const input = generate(n, SEED + n);
  const options = { now: NOW, ...(scenario === 'all' ? { maxLendersPerPeriod: n } : {}) };
  const json = JSON.stringify(input.products);
  const copy = () => (scenario === 'fresh' ? JSON.parse(json) : input.products.slice());
  let eligible = 0;
  let excluded = 0;
  // One timed call. As in a request, the result is dropped once used (here: counted) before the next
  // call: it lives in this function's frame only, not in a variable of the loop.
  const timed = (products) => {
    const t0 = performance.now();
    const result = match(input.profile, products, input.counters, input.history, options);
    const ms = performance.now() - t0;
    eligible = result.eligible.length;
    excluded = result.excluded.length;
    return ms;
  };
  // The first two calls on the list (within the warm-up): the first sees it for the first time, the
  // second builds the table of a list passed again (default and all; fresh has a new list every call).
  const firstTwo = [];
  for (let i = 0; i < Math.max(WARMUP, 2); i++) {
    const ms = timed(copy());
    if (i < 2) firstTwo.push(ms);
  }
  const times = [];
  for (let i = 0; i < CALLS; i++) times.push(timed(copy()));
  times.sort((a, b) => a - b);
  return {
    scenario,
    products: n,
    calls: CALLS,
    eligible,
    excluded,
    firstCallMs: firstTwo[0],
    secondCallMs: firstTwo[1],
    minMs: times[0],
    medianMs: quantile(times, 0.5),
    p90Ms: quantile(times, 0.9),
    p99Ms: quantile(times, 0.99),
    maxMs: times[times.length - 1],
  };
}

function cpuTimes() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = fields.map(Number);
  return { idle: n[3] + (n[4] ?? 0), total: n.reduce((a, b) => a + b, 0) };
}

/**
 * Share of the machine's CPU busy over `ms` while this script waits: work by other processes, which
 * slows the calls and lengthens the tail. null where /proc is missing.
 */
async function foreignCpuBusy(ms = 2000) {
  try {
    const a = cpuTimes();
    await new Promise((r) => setTimeout(r, ms));
    const b = cpuTimes();
    return Math.round((1 - (b.idle - a.idle) / (b.total - a.total)) * 100);
  } catch {
    return null;
  }
}

const fmt = (ms) => (ms < 10 ? ms.toFixed(3) : ms.toFixed(1));
const results = [];
const busy = await foreignCpuBusy();
console.log(
  `match() of ${path.relative(ROOT, modulePath)} on Node ${process.version}, ${CALLS} timed calls per row after ${WARMUP} warm-up calls, seed ${SEED}`,
);
if (busy !== null)
  console.log(
    `CPU busy before the run (other processes): ${busy}%${busy > 20 ? ' (WARNING: figures will be high)' : ''}`,
  );
for (const scenario of SCENARIOS) {
  console.log(`\nscenario ${scenario}`);
  console.log(
    'products  eligible  excluded    1st ms    2nd ms    min ms  median ms    p90 ms    p99 ms    max ms  ×median  ×p99',
  );
  let prev;
  for (const n of SIZES) {
    const r = measure(scenario, n);
    results.push(r);
    const grow = (a, b) => (b ? (a / b).toFixed(1) : '');
    console.log(
      [
        String(n).padStart(8),
        String(r.eligible).padStart(9),
        String(r.excluded).padStart(9),
        fmt(r.firstCallMs).padStart(9),
        fmt(r.secondCallMs).padStart(9),
        fmt(r.minMs).padStart(9),
        fmt(r.medianMs).padStart(10),
        fmt(r.p90Ms).padStart(9),
        fmt(r.p99Ms).padStart(9),
        fmt(r.maxMs).padStart(9),
        grow(r.medianMs, prev?.medianMs).padStart(8),
        grow(r.p99Ms, prev?.p99Ms).padStart(5),
      ].join(' '),
    );
    prev = r;
  }
}
console.log(
  '\n1st, 2nd ms: the first two calls on the list (part of the warm-up; the 2nd builds the table of a list passed again)',
);
console.log(
  '×median / ×p99: ratio to the row above (linear growth gives the ratio of the sizes: ×10 for the default sizes)',
);
if (args.json) console.log(JSON.stringify({ cpuBusyBeforePercent: busy, results }, null, 2));
