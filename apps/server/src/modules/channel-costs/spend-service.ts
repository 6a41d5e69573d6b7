import { createHash } from 'node:crypto';
import { shanghaiMonthOf } from '@lm/shared/money';
import type {
  SpendFileBody,
  SpendImportResult,
  SpendImportSummary,
  SpendImportsData,
  SpendPreviewData,
} from '@lm/shared/schemas/spend-imports';
import { addDays, shanghaiDate, shanghaiDayStart } from '@lm/shared/time';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import type { EntryInput } from '../ledger/repository.ts';
import { showsAmounts } from '../pricing/service.ts';
import type { ChannelCostsRepository, SpendImportWithWho } from './repository.ts';
import {
  costRef,
  type JudgedSpendRow,
  judgeSpendRows,
  type KnownChannel,
  readSpendFile,
  SpendFileError,
  spendDelta,
} from './rules.ts';

export interface SpendImportDeps {
  repo: ChannelCostsRepository;
  /** The clock (tests move it). */
  now?: () => Date;
}

/** How many imports the list shows. */
const LIST_LIMIT = 200;

const summary = (i: SpendImportWithWho, shown: boolean): SpendImportSummary => ({
  id: i.id,
  fileName: i.fileName,
  rowsTotal: i.rowsTotal,
  rowsImported: i.rowsImported,
  rowsRejected: i.rowsRejected,
  ...(shown ? { totalFen: i.totalFen } : {}),
  createdByName: i.createdByName,
  createdAt: i.createdAt.toISOString(),
});

/** A judged file: its rows with what each changes, and the accepted ones to book. */
interface Judged extends SpendPreviewData {
  accepted: number;
  ok: (JudgedSpendRow & { channelId: number; day: string; amountFen: number; deltaFen: number })[];
}

/**
 * Spend imported from an ad platform's daily report (issue 48.2, ADR 073). A file is read and judged row by row
 * (preview: nothing written); committing it records the import and its accepted rows and books, per accepted
 * channel-day, a `spend` channel-cost entry of the difference between the file's figure and what is booked for
 * that channel-day already — so a day imported again with a corrected figure books only the change, and the same
 * file (by the SHA-256 of its content) imported again books nothing. Imports run one at a time (a lock).
 */
export class SpendImportService {
  private readonly now: () => Date;

  constructor(private readonly d: SpendImportDeps) {
    this.now = d.now ?? (() => new Date());
  }

  private static hash(content: string): string {
    return createHash('sha256').update(content, 'utf8').digest('hex');
  }

  private async judge(repo: ChannelCostsRepository, content: string): Promise<Judged> {
    let rows: ReturnType<typeof readSpendFile>;
    try {
      rows = readSpendFile(content);
    } catch (err) {
      if (err instanceof SpendFileError)
        throw appError('VALIDATION_FAILED', `消耗文件无法读取：${err.message}`, {
          fields: [{ field: 'content', message: err.message }],
        });
      throw err;
    }
    const codes = [...new Set(rows.map((r) => r.channelCode).filter((c) => c !== ''))];
    const known = await repo.channelsByCodes(codes);
    const channels = new Map<string, KnownChannel>(known.map((c) => [c.code, c]));
    const judged = judgeSpendRows(rows, shanghaiDate(this.now()), channels);
    const accepted = judged.filter(
      (r): r is JudgedSpendRow & { channelId: number; day: string; amountFen: number } => r.status === 'ok',
    );
    const days = accepted.map((r) => r.day).sort();
    const booked =
      accepted.length === 0
        ? new Map<string, number>()
        : await repo.spendBooked(
            [...new Set(accepted.map((r) => r.channelId))],
            shanghaiDayStart(days[0]!),
            shanghaiDayStart(addDays(days[days.length - 1]!, 1)),
          );
    const ok = accepted.map((r) => {
      const before = booked.get(`${r.channelId}|${shanghaiDayStart(r.day).toISOString()}`) ?? 0;
      return { ...r, bookedFen: before, deltaFen: spendDelta(r.amountFen, before) };
    });
    const okByLine = new Map(ok.map((r) => [r.line, r]));
    return {
      rows: judged.map(({ channelId: _, ...r }) => {
        const o = okByLine.get(r.line);
        return o ? { ...r, bookedFen: o.bookedFen, deltaFen: o.deltaFen } : r;
      }),
      accepted: ok.length,
      rejected: judged.length - ok.length,
      totalFen: ok.reduce((s, r) => s + r.amountFen, 0),
      alreadyImported: null,
      ok,
    };
  }

  /** The file judged row by row, with what each accepted row would book; nothing is written. */
  async preview(actor: Actor, body: SpendFileBody): Promise<SpendPreviewData> {
    const { ok: _, ...judged } = await this.judge(this.d.repo, body.content);
    const earlier = await this.d.repo.importByHash(SpendImportService.hash(body.content));
    return { ...judged, alreadyImported: earlier ? summary(earlier, showsAmounts(actor)) : null };
  }

  /**
   * Imports the file: the accepted rows recorded and their differences booked (one transaction, under the
   * imports' lock). The same file again answers the earlier import with `repeated: true` and books nothing; a
   * file without one acceptable row is refused in words.
   */
  async commit(actor: Actor, body: SpendFileBody): Promise<SpendImportResult> {
    const hash = SpendImportService.hash(body.content);
    const shown = showsAmounts(actor);
    return this.d.repo.transaction(async (tx, ledger) => {
      await tx.lockSpendImports();
      const { ok, ...judged } = await this.judge(tx, body.content);
      const earlier = await tx.importByHash(hash);
      if (earlier)
        return {
          ...judged,
          alreadyImported: summary(earlier, shown),
          import: summary(earlier, shown),
          repeated: true,
          entriesBooked: 0,
          bookedFen: 0,
        };
      if (ok.length === 0)
        throw appError('VALIDATION_FAILED', '文件中没有可导入的行：请按预览中的原因修正后重新导入', {
          fields: [{ field: 'content', message: '没有可导入的行' }],
        });
      const row = await tx.insertImport({
        fileHash: hash,
        fileName: body.fileName,
        rowsTotal: judged.rows.length,
        rowsImported: ok.length,
        rowsRejected: judged.rejected,
        createdBy: actor.staff?.id ?? null,
      });
      if (!row) throw appError('SERVICE_UNAVAILABLE', '该文件正在被导入，请稍后刷新导入记录');
      await tx.insertSpendRows(
        ok.map((r) => ({
          importId: row.id,
          line: r.line,
          day: r.day,
          channelId: r.channelId,
          channelCode: r.channelCode as string,
          amountFen: r.amountFen,
        })),
      );
      const entries: EntryInput[] = ok
        .filter((r) => r.deltaFen !== 0)
        .map((r) => {
          const eventAt = shanghaiDayStart(r.day);
          return {
            kind: 'channel_cost',
            partyType: 'channel',
            partyId: r.channelId,
            partyCode: r.channelCode as string,
            eventAt,
            eventMonth: shanghaiMonthOf(eventAt),
            amountFen: r.deltaFen,
            reference: costRef.spend(r.channelId, r.day, row.id),
            model: 'spend',
            priceId: null,
            basisFen: r.amountFen,
            quantity: null,
            leadId: null,
            productId: null,
            channelCode: r.channelCode,
            reason: `导入 ${body.fileName} 第 ${r.line} 行`,
            staffId: actor.staff?.id ?? null,
          };
        });
      const booked = await ledger.book(entries);
      await tx.recordAudit(actor, {
        action: 'import',
        entity: 'spend_import',
        entityId: row.id,
        before: null,
        after: {
          fileName: body.fileName,
          rowsTotal: row.rowsTotal,
          rowsImported: row.rowsImported,
          rowsRejected: row.rowsRejected,
          totalFen: judged.totalFen,
          entriesBooked: booked.length,
          bookedFen: booked.reduce((s, e) => s + e.amountFen, 0),
        },
      });
      const made: SpendImportWithWho = {
        ...row,
        createdByName: actor.staff?.name ?? null,
        totalFen: judged.totalFen,
      };
      return {
        ...judged,
        import: summary(made, shown),
        repeated: false,
        entriesBooked: booked.length,
        bookedFen: booked.reduce((s, e) => s + e.amountFen, 0),
      };
    });
  }

  /** The imports, the latest first (a viewer sees no totals). */
  async list(actor: Actor): Promise<SpendImportsData> {
    const shown = showsAmounts(actor);
    const rows = await this.d.repo.listImports(LIST_LIMIT);
    return { list: rows.map((r) => summary(r, shown)), amountsShown: shown };
  }
}
