import { RECONCILE_MAX_LISTED } from '@lm/shared/reconcile';
import type { ReconcileBody, ReconcileData } from '@lm/shared/schemas/reconcile';
import { addDays, shanghaiDayStart } from '@lm/shared/time';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import type { ReconcileRepository } from './reconcile-repository.ts';
import { type OurLead, ReconcileFileError, readReconcileFile, reconcile } from './reconcile-rules.ts';

/**
 * A lender's own list of our leads compared with what it reported to us (issue 47.4): the console uploads the
 * lender's CSV, the answer lists the disagreements for people to act on. Nothing is written to the outcomes;
 * the run itself is audited (who, which lender, the counts).
 */
export class ReconcileService {
  constructor(private readonly d: { repo: ReconcileRepository }) {}

  async run(actor: Actor, partnerId: number, body: ReconcileBody): Promise<ReconcileData> {
    const { repo } = this.d;
    const partner = await repo.partner(partnerId);
    if (!partner) throw appError('NOT_FOUND', '合作机构不存在');
    let rows: ReturnType<typeof readReconcileFile>;
    try {
      rows = readReconcileFile(body.csv);
    } catch (err) {
      if (err instanceof ReconcileFileError)
        throw appError('VALIDATION_FAILED', `对账文件无法读取：${err.message}`, {
          fields: [{ field: 'csv', message: err.message }],
        });
      throw err;
    }
    const period = body.from && body.to ? { from: body.from, to: body.to } : null;
    const [inFile, expectedBase] = await Promise.all([
      repo.leadsByKeys(
        partner.id,
        rows.flatMap((r) => (r.leadId ? [r.leadId] : [])),
      ),
      period
        ? repo.deliveredBetween(
            partner.id,
            shanghaiDayStart(period.from),
            shanghaiDayStart(addDays(period.to, 1)),
          )
        : repo.withOutcome(partner.id),
    ]);
    const amounts = await repo.amounts([...inFile, ...expectedBase].map((l) => l.recordId));
    const approved = new Map<number, number | null>();
    const funded = new Map<number, number | null>();
    // In the order received: the latest of each wins.
    for (const a of amounts) {
      if (a.status === 'approved') approved.set(a.leadId, a.limitFen);
      else funded.set(a.leadId, a.amountFen);
    }
    const full = (l: (typeof inFile)[number]): OurLead => ({
      ...l,
      approvedLimitFen: approved.get(l.recordId) ?? null,
      fundedAmountFen: funded.get(l.recordId) ?? null,
    });
    const ours = new Map(inFile.map((l) => [l.leadId, full(l)]));
    const result = reconcile(rows, ours, expectedBase.map(full), RECONCILE_MAX_LISTED);
    const { totals } = result;
    await repo.recordAudit(actor, {
      action: 'reconcile',
      entity: 'partner',
      entityId: partner.id,
      after: {
        periodFrom: period?.from ?? null,
        periodTo: period?.to ?? null,
        rowsRead: totals.rows,
        matched: totals.matched,
        disagreements: totals.disagreements,
        unknownLead: totals.unknownLead,
        statusDiffers: totals.statusDiffers,
        amountDiffers: totals.amountDiffers,
        missingInFile: totals.missingInFile,
        badRows: totals.badRows,
      },
    });
    return { partnerId: partner.id, partnerCode: partner.code, period, ...result };
  }
}
