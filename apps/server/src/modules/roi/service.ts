import { parseChannelFlags } from '@lm/shared/channel';
import type { RoiData, RoiQuery } from '@lm/shared/schemas/roi';
import { shanghaiDayBounds, shanghaiDayStart } from '@lm/shared/time';
import type { Actor } from '../../lib/actor.ts';
import type { FunnelService } from '../funnel/service.ts';
import type { RoiPeriod, RoiRepository } from './repository.ts';
import { abTestOf, aggregateRoi, type RoiFact, runsAbTest, withoutAmounts } from './rules.ts';

/** Who sees amounts: admin and operator; a viewer gets the volumes only (issue 48.7). */
export function showsAmounts(actor: Actor): boolean {
  return actor.staff !== null && actor.staff.role !== 'viewer';
}

/**
 * ROI per channel, Shanghai day or skin (issue 48.6, docs/money.md "ROI (48.6)"): the volumes of the period
 * from the event tables, its money from the ledger by event day, put together by `aggregateRoi`; for skins also
 * the channels' A/B arms with the A/B page's significance (FunnelService.arms, reused as it is).
 */
export class RoiService {
  constructor(
    private readonly repo: RoiRepository,
    private readonly funnel: Pick<FunnelService, 'arms'>,
  ) {}

  async roi(actor: Actor, q: RoiQuery): Promise<RoiData> {
    const p: RoiPeriod = {
      from: q.from,
      to: q.to,
      start: shanghaiDayStart(q.from),
      end: shanghaiDayBounds(q.to).end,
    };
    const [known, ...parts] = await Promise.all([
      this.repo.channels(),
      this.repo.clicks(p),
      this.repo.registrations(p),
      this.repo.leads(p),
      this.repo.approved(p),
      this.repo.funded(p),
      this.repo.money(p),
    ]);
    const facts: RoiFact[] = parts.flat();
    const byCode = new Map(known.map((c) => [c.adChannelCode, c]));
    const defaultSkinOf = (code: string | null) => {
      const c = code === null ? undefined : byCode.get(code);
      return c ? parseChannelFlags(c.flags).skin : null;
    };
    const { rows, totals } = aggregateRoi(facts, {
      groupBy: q.groupBy,
      defaultSkinOf,
      channelNames: new Map(known.map((c) => [c.adChannelCode, c.name])),
    });

    const abTests =
      q.groupBy !== 'skin'
        ? []
        : await Promise.all(
            known
              .filter(
                (c) =>
                  runsAbTest(c.skinArms) &&
                  facts.some((f) => f.channelCode === c.adChannelCode && (f.clicks ?? 0) > 0),
              )
              .sort((a, b) => (a.adChannelCode < b.adChannelCode ? -1 : 1))
              .map(async (c) =>
                abTestOf(
                  c.name,
                  await this.funnel.arms(c.adChannelCode, q.from, q.to),
                  facts.filter((f) => f.channelCode === c.adChannelCode && f.costFen === undefined),
                  defaultSkinOf,
                ),
              ),
          );

    const shown = showsAmounts(actor);
    return {
      from: q.from,
      to: q.to,
      groupBy: q.groupBy,
      rows: shown ? rows : rows.map(withoutAmounts),
      totals: shown ? totals : withoutAmounts(totals),
      abTests: shown ? abTests : abTests.map((t) => ({ ...t, arms: t.arms.map(withoutAmounts) })),
      amountsShown: shown,
    };
  }
}
