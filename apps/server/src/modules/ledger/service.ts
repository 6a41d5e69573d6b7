import { shanghaiMonthOf } from '@lm/shared/money';
import type { EntryInput, LedgerEntryRow, LedgerRepository } from './repository.ts';

/**
 * Writing to the ledger from outside the posting sweep (issue 48, ADR 073): entries booked in one transaction
 * (returns, imported spend, adjustments) and a month's close. Both serialise on the month's advisory lock, so
 * a close never loses or splits a posting in flight and nothing is booked into a closed month.
 */
export class LedgerService {
  constructor(private readonly repo: LedgerRepository) {}

  /** Books entries in one transaction (each in its event's month, or the next open one); skips those booked. */
  post(entries: readonly Omit<EntryInput, 'eventMonth'>[]): Promise<LedgerEntryRow[]> {
    return this.repo.transaction((tx) =>
      tx.book(entries.map((e) => ({ ...e, eventMonth: shanghaiMonthOf(e.eventAt) }))),
    );
  }

  /**
   * Closes a Shanghai month: waits for the postings in flight in it (exclusive lock), then records the close;
   * every later posting of an event of that month goes to the next open month. `inTx` runs in the same
   * transaction (the caller's audit record). False when it was closed already.
   */
  close(
    month: string,
    staffId: number | null,
    inTx?: (tx: LedgerRepository) => Promise<void>,
  ): Promise<boolean> {
    return this.repo.transaction(async (tx) => {
      await tx.lockMonthExclusive(month);
      const closed = await tx.insertClose(month, staffId);
      if (closed && inTx) await inTx(tx);
      return closed;
    });
  }
}
