#!/usr/bin/env node
// Speed of the console's funnel queries (apps/server/src/modules/funnel/service.ts) on generated data:
// 1 000 000 events and 300 000 channel clicks over 90 days and 50 channels, in an in-memory PGlite
// (or PostgreSQL with --pg-url / BENCH_DATABASE_URL, in a throw-away schema).
//
//   node bench/funnel.mjs [--events 1000000] [--clicks 300000] [--runs 5] [--pg-url postgres://…]
//
// For each call (funnel, trend, by-channel, arms; over 7, 30 and 92 days; every channel and one channel)
// it prints the median and max of --runs timed calls after one warm-up, the longest the event loop did not turn
// meanwhile (the longest gap between the ticks of a 1-ms timer: what any other request of the API would have
// waited while the console's call ran; the embedded PGlite runs on a thread of its own since ADR 047), and the
// plan of the 30-day funnel query (it should use the events_day and channel_clicks_day indexes).

import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import { watchLoopGaps } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    clicks: { type: 'string', default: '300000' },
    runs: { type: 'string', default: '5' },
    'pg-url': { type: 'string', default: process.env.BENCH_DATABASE_URL },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log('usage: node bench/funnel.mjs [--events n] [--clicks n] [--runs n] [--pg-url url]');
  process.exit(0);
}
const EVENTS = Number(args.events);
const CLICKS = Number(args.clicks);
const RUNS = Number(args.runs);

register();
const mod = (p) => import(pathToFileURL(path.join(ROOT, p)).href);
const { openDatabase } = await mod('apps/server/src/db/client.ts');
const { FunnelService } = await mod('apps/server/src/modules/funnel/service.ts');
const { FunnelRepository } = await mod('apps/server/src/modules/funnel/repository.ts');
const { sql } = await import('drizzle-orm');

const schemaName = args['pg-url'] ? `bench_funnel_${randomBytes(4).toString('hex')}` : undefined;
const database = await openDatabase({ url: args['pg-url'], schemaName, poolSize: 4 });
const { db } = database;
const LAST = '2026-03-31';
const FIRST_DAY = '2026-01-01'; // 90 days up to LAST

const t0 = performance.now();
await db.execute(sql`insert into channels (ad_channel_code, name, flags, skin_arms)
  select 'ch' || c, '渠道' || c, 'skin17', case when c = 0 then '[{"skin":8,"weight":50},{"skin":9,"weight":50}]'::jsonb end
  from generate_series(0, 49) c on conflict do nothing`);
// Steps fall off like a funnel: step k with probability ~ 0.6^k.
await db.execute(sql`insert into events (session_id, step, ad_channel_code, skin, fingerprint_hash, day)
  select 's' || i,
         (array['visit_landing','get_verification_code','login','visit_form','submit_form','visit_authorization',
                'authorize','visit_result','download_app','retention_popup','re_authorization'])
           [1 + least(10, floor(-ln(1 - ((i * 2654435761) % 1000003) / 1000003.0) / 0.51))::int],
         'ch' || (i % 50), 8 + (i % 2), 'fp' || (i / 3), ${FIRST_DAY}::date + (i % 90)
  from generate_series(1, ${EVENTS}) i`);
await db.execute(sql`insert into channel_clicks (ad_channel_code, fingerprint_hash, day, ab_test_type)
  select 'ch' || (i % 50), 'fc' || i, ${FIRST_DAY}::date + (i % 90), 8 + (i % 2)
  from generate_series(1, ${CLICKS}) i`);
await db.execute(sql`analyze events`);
await db.execute(sql`analyze channel_clicks`);
console.log(
  `${database.kind}: ${EVENTS.toLocaleString()} events, ${CLICKS.toLocaleString()} clicks generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const funnel = new FunnelService(new FunnelRepository(db));
const minus = (n) =>
  new Date(Date.parse(`${LAST}T00:00:00Z`) - (n - 1) * 86_400_000).toISOString().slice(0, 10);
const page = { page: 1, pageSize: 20, sort: 'clicks', order: 'desc' };

async function time(label, fn) {
  await fn();
  const ms = [];
  const loopGaps = watchLoopGaps();
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    await fn();
    ms.push(performance.now() - s);
  }
  // A loop blocked until the end has not run the timer since: that stretch counts too.
  await new Promise((resolve) => setTimeout(resolve, 2));
  const longest = loopGaps();
  ms.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)} median ${ms[Math.floor(ms.length / 2)].toFixed(1).padStart(8)} ms   max ${ms.at(-1).toFixed(1).padStart(8)} ms   event loop's longest stop ${longest.toFixed(1).padStart(7)} ms`,
  );
}

for (const days of [7, 30, 92]) {
  const from = minus(days);
  for (const codes of [null, ['ch7']]) {
    const f = { from, to: LAST, channelCodes: codes };
    const who = codes ? 'one channel' : 'all channels';
    await time(`funnel     ${String(days).padStart(2)} days, ${who}`, () => funnel.funnel(f));
    await time(`trend      ${String(days).padStart(2)} days, ${who}`, () => funnel.trend(f));
    await time(`by-channel ${String(days).padStart(2)} days, ${who}`, () => funnel.byChannel(f, page));
  }
  await time(`arms       ${String(days).padStart(2)} days, ch0`, () => funnel.arms('ch0', from, LAST));
}

const plan =
  await db.execute(sql`explain select step, count(distinct (day::text || ':' || coalesce(fingerprint_hash, 's:' || session_id)))
  from events where day between ${minus(30)} and ${LAST} and ad_channel_code in ('ch7') group by step`);
const rows = Array.isArray(plan) ? plan : plan.rows;
console.log('\nplan of the 30-day funnel query for one channel:');
for (const r of rows) console.log(`  ${Object.values(r)[0]}`);

if (schemaName) await db.execute(sql.raw(`drop schema if exists ${schemaName} cascade`));
await database.close();
