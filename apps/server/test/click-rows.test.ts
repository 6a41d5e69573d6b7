import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyText, type Database, rowsOf } from '../src/db/client.ts';
import { clickCopyLine } from '../src/modules/channels/click-copy.ts';
import type { ClickRow } from '../src/modules/channels/clicks.ts';
import { ChannelRepository } from '../src/modules/channels/repository.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * Clicks written behind (ADR 040): appended with COPY on the embedded PGlite, inserted on PostgreSQL;
 * either way every row arrives as it was, and a batch holding a key the table has already stores the
 * rest and keeps the first.
 */
let ctx: TestContext;
let database: Database;
let repo: ChannelRepository;

beforeAll(async () => {
  // The app's database (migrated; on PostgreSQL a schema of its own), written through a repository.
  ctx = await createTestApp();
  database = ctx.shared.database;
  repo = new ChannelRepository(database.db, database.copyRows);
});

afterAll(async () => {
  await ctx?.close();
});

const day = '2026-11-27';
let n = 0;
const row = (over: Partial<ClickRow> = {}): ClickRow => ({
  adChannelCode: 'demo',
  fingerprintHash: `h-${Date.now().toString(36)}-${n++}`,
  day,
  abTestType: null,
  ip: '10.0.0.1',
  at: new Date('2026-11-27T01:02:03.456Z'),
  ...over,
});

type StoredClick = {
  ad_channel_code: string;
  fingerprint_hash: string | null;
  day: string;
  ab_test_type: number | null;
  flagged: boolean;
  ip: string;
  created_at: Date | string;
};
const storedColumns = sql`select ad_channel_code, fingerprint_hash, day::text as day, ab_test_type, flagged,
  ip, created_at from channel_clicks`;

/** The stored rows of these fingerprint hashes, in the order they were stored. */
async function storedByHash(hashes: (string | null)[]): Promise<StoredClick[]> {
  const wanted = hashes.filter((h) => h !== null).map((h) => sql`${h}`);
  return rowsOf<StoredClick>(
    await database.db.execute(
      sql`${storedColumns} where fingerprint_hash in (${sql.join(wanted, sql`, `)}) order by id`,
    ),
  );
}

/** The stored rows from this address. */
async function storedByIp(ip: string): Promise<StoredClick[]> {
  return rowsOf<StoredClick>(await database.db.execute(sql`${storedColumns} where ip = ${ip} order by id`));
}

// As rows (appendClicks), and as the COPY text the click recorder keeps them in on PGlite (ADR 052).
describe.each([
  { given: 'rows', append: (rows: ClickRow[]) => repo.appendClicks(rows) },
  {
    given: 'COPY text',
    append: (rows: ClickRow[]) => repo.appendClickText(rows.map(clickCopyLine).join('')),
  },
])('clicks written behind, given as $given', ({ append }) => {
  it('uses COPY exactly on the embedded database', () => {
    expect(typeof database.copyRows).toBe(database.kind === 'pglite' ? 'function' : 'undefined');
    expect(repo.appendsText).toBe(database.kind === 'pglite');
  });

  it('stores every row as it came: skin, time, a flagged click, and text COPY would misread', async () => {
    // Its own in each run of this test (they share the table).
    const odd = `10.0.0.2\t\\N\\\n\r.${n++}`;
    const rows = [
      row({ abTestType: 17 }),
      row({ fingerprintHash: null, ip: odd }),
      row({ adChannelCode: 'demo-skin8', at: new Date('2026-11-26T16:00:00.000Z') }),
    ];
    await append(rows);
    const got = await storedByHash(rows.map((r) => r.fingerprintHash));
    expect(got.map((r) => [r.ad_channel_code, r.fingerprint_hash, r.day, r.ab_test_type, r.flagged])).toEqual(
      [
        ['demo', rows[0]!.fingerprintHash, day, 17, false],
        ['demo-skin8', rows[2]!.fingerprintHash, day, null, false],
      ],
    );
    expect(new Date(got[0]!.created_at).toISOString()).toBe('2026-11-27T01:02:03.456Z');
    expect(new Date(got[1]!.created_at).toISOString()).toBe('2026-11-26T16:00:00.000Z');
    const flagged = await storedByIp(odd);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({ fingerprint_hash: null, flagged: true, ip: odd });
  });

  it('a batch with a key already stored keeps the first row and stores the others', async () => {
    const first = row({ ip: '10.0.0.3' });
    await append([first]);
    const again = { ...first, ip: '10.0.0.4' };
    const fresh = row({ ip: '10.0.0.5' });
    await append([again, fresh]);
    const got = await storedByHash([first.fingerprintHash, fresh.fingerprintHash]);
    expect(got.map((r) => [r.fingerprint_hash, r.ip])).toEqual([
      [first.fingerprintHash, '10.0.0.3'],
      [fresh.fingerprintHash, '10.0.0.5'],
    ]);
  });

  it('an empty batch writes nothing', async () => {
    await expect(append([])).resolves.toBeUndefined();
  });
});

describe('copyText', () => {
  it('escapes what COPY text reads specially and leaves the rest', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText(17)).toBe('17');
    expect(copyText('demo-skin8')).toBe('demo-skin8');
    expect(copyText('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyText('\\N')).toBe('\\\\N');
  });
});
