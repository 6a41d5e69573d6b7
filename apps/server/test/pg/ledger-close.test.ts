import { shanghaiMonthOf } from '@lm/shared/money';
import { shanghaiDayStart } from '@lm/shared/time';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, partners } from '../../src/db/schema.ts';
import { nextMonth, previousMonth } from '../../src/modules/ledger/rules.ts';
import { BACKEND, createTestApp, PG_URL, type TestContext } from '../helpers.ts';

/**
 * PostgreSQL only (issue 48.3 / 48.5): many postings of a month's events racing its close never lose or
 * double an entry. Entries that got into the month before the close stay there; every posting after it lands
 * in the next open month; the closed month's count and sum never move once the close has committed.
 */
let ctx: TestContext;
beforeAll(async () => {
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL-only tests');
  ctx = await createTestApp({ env: { DATABASE_POOL_SIZE: '20' } });
});
afterAll(async () => ctx?.close());

describe(`ledger postings racing a month close (${BACKEND})`, () => {
  it('300 concurrent postings (and retries of 100 of them) while the month closes: each booked once, none in it after the close', async () => {
    const db = ctx.app.database.db;
    const ledger = ctx.app.services.ledger;
    const [lender] = await db.select({ id: partners.id, code: partners.code }).from(partners).limit(1);
    // Two months ago: it has ended, and the month after it is open too.
    const month = previousMonth(previousMonth(shanghaiMonthOf(new Date())));
    const next = nextMonth(month);
    const eventAt = new Date(shanghaiDayStart(`${month}-15`).getTime() + 3_600_000);
    const entry = (i: number) => ({
      kind: 'lead_revenue' as const,
      partyType: 'lender' as const,
      partyId: lender!.id,
      partyCode: lender!.code,
      eventAt,
      amountFen: 100 + i,
      reference: `race:${i}:cpl`,
      model: 'cpl',
      quantity: 1,
    });
    const inMonth = async (m: string) => {
      const [row] = await db
        .select({
          n: sql<number>`count(*)::int`,
          sum: sql<string>`coalesce(sum(${ledgerEntries.amountFen}), 0)::text`,
        })
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.month, m), like(ledgerEntries.reference, 'race:%')));
      return { n: Number(row!.n), sum: Number(row!.sum) };
    };

    const N = 300;
    const first = Array.from({ length: 150 }, (_, i) => ledger.post([entry(i)]));
    // Retries of the same events at the same time: each is booked once whichever gets there.
    const retries = Array.from({ length: 100 }, (_, i) => ledger.post([entry(i * 3)]));
    let atClose: { n: number; sum: number } | null = null;
    const closing = ledger.close(month, null).then(async (closed) => {
      atClose = await inMonth(month);
      return closed;
    });
    const second = Array.from({ length: 150 }, (_, i) => ledger.post([entry(150 + i)]));
    const results = await Promise.all([...first, ...retries, ...second]);
    expect(await closing).toBe(true);
    // Postings started after the close committed: all in the next month.
    const after = await Promise.all(Array.from({ length: 20 }, (_, i) => ledger.post([entry(N + i)])));
    expect(after.flat().every((r) => r.month === next)).toBe(true);

    const all = await db
      .select({
        reference: ledgerEntries.reference,
        month: ledgerEntries.month,
        amountFen: ledgerEntries.amountFen,
      })
      .from(ledgerEntries)
      .where(like(ledgerEntries.reference, 'race:%'));
    // Every event booked exactly once, in the month or the next; the total preserved.
    const total = N + 20;
    expect(all).toHaveLength(total);
    expect(new Set(all.map((r) => r.reference)).size).toBe(total);
    expect(all.every((r) => r.month === month || r.month === next)).toBe(true);
    const expectedSum = Array.from({ length: total }, (_, i) => 100 + i).reduce((a, b) => a + b, 0);
    expect(all.reduce((a, r) => a + r.amountFen, 0)).toBe(expectedSum);
    // What the postings answered is what is stored (a retry that found its entry booked answers nothing).
    const answered = results.flat();
    expect(new Set(answered.map((r) => r.reference)).size).toBe(answered.length);
    expect(answered.length).toBe(N);
    // The month as it stood when the close committed is the month now: nothing got in after it.
    expect(atClose).not.toBeNull();
    expect(await inMonth(month)).toEqual(atClose);
    const booked = await inMonth(month);
    const moved = await inMonth(next);
    expect(booked.n + moved.n).toBe(total);
    console.info(`race: ${booked.n} booked in ${month} before its close, ${moved.n} in ${next} after it`);
  });

  it('the ledger refuses UPDATE and DELETE', async () => {
    const db = ctx.app.database.db;
    const refusal = async (q: Promise<unknown>) => {
      const err = await q.then(
        () => null,
        (e: Error & { cause?: Error }) => e,
      );
      return `${err?.message ?? ''} ${err?.cause?.message ?? ''}`;
    };
    expect(await refusal(db.execute(sql`update ledger_entries set amount_fen = amount_fen + 1`))).toMatch(
      /append-only: UPDATE refused/,
    );
    expect(await refusal(db.execute(sql`delete from ledger_entries`))).toMatch(/append-only: DELETE refused/);
  });
});
