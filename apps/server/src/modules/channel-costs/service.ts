import { channelCostUnit } from '@lm/shared/ledger';
import type { ChannelCost, ChannelCostBody, ChannelCostsData } from '@lm/shared/schemas/channel-costs';
import { formatShanghai, shanghaiDate, shanghaiDayStart } from '@lm/shared/time';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import { costAt } from '../ledger/rules.ts';
import { showsAmounts } from '../pricing/service.ts';
import type { ChannelCostsRepository, ChannelCostWithWho } from './repository.ts';
import { byNewest } from './rules.ts';

export interface ChannelCostsDeps {
  repo: ChannelCostsRepository;
  /** The clock (tests move it). */
  now?: () => Date;
}

/**
 * What a channel costs (issue 48.2, ADR 073): one model at a time per channel — CPC, CPA per registration or per
 * lead, a revenue share, or the spend imported from the ad platform — each from a Shanghai day on (today or
 * later, one row per channel and day), listed with the row in force; each addition audited. The daily poster
 * (poster.ts) books per-event costs, the lead poster the revenue share, a spend import the spend.
 */
export class ChannelCostsService {
  private readonly now: () => Date;

  constructor(private readonly d: ChannelCostsDeps) {
    this.now = d.now ?? (() => new Date());
  }

  private async channel(repo: ChannelCostsRepository, id: number) {
    const channel = await repo.channel(id);
    if (!channel) throw appError('NOT_FOUND', '渠道不存在');
    return channel;
  }

  /** The cost rows of a channel and the one in force on the Shanghai day `at` (default today). */
  async list(actor: Actor, channelId: number, at?: string): Promise<ChannelCostsData> {
    await this.channel(this.d.repo, channelId);
    const rows = await this.d.repo.costs(channelId);
    const today = shanghaiDate(this.now());
    const day = at ?? today;
    const shown = showsAmounts(actor);
    const item = (r: ChannelCostWithWho): ChannelCost => ({
      id: r.id,
      model: r.model,
      ...(shown && r.amountFen !== null ? { amountFen: r.amountFen } : {}),
      ...(shown && r.bps !== null ? { bps: r.bps } : {}),
      effectiveFrom: formatShanghai(r.effectiveFrom.toISOString(), 'day'),
      createdByName: r.createdByName,
      createdAt: r.createdAt.toISOString(),
    });
    const inForce = costAt(rows, shanghaiDayStart(day));
    return {
      channelId,
      at: day,
      today,
      inForce: inForce ? item(inForce) : null,
      list: [...rows].sort(byNewest).map(item),
      amountsShown: shown,
    };
  }

  /**
   * Adds a cost row from the Shanghai day `effectiveFrom` (today or later, held against the service's clock too).
   * A second row of the channel from the same day is refused in words.
   */
  async add(actor: Actor, channelId: number, body: ChannelCostBody): Promise<ChannelCostsData> {
    const today = shanghaiDate(this.now());
    if (body.effectiveFrom < today)
      throw appError(
        'VALIDATION_FAILED',
        '生效日期不能早于今天（北京时间）：新的渠道成本不改变已经发生的费用',
        {
          fields: [{ field: 'effectiveFrom', message: '生效日期不能早于今天（北京时间）' }],
        },
      );
    const unit = channelCostUnit(body.model);
    await this.d.repo.transaction(async (tx) => {
      const channel = await this.channel(tx, channelId);
      const row = await tx.insert({
        channelId,
        model: body.model,
        amountFen: unit === 'fen' ? (body.amountFen ?? null) : null,
        bps: unit === 'bps' ? (body.bps ?? null) : null,
        effectiveFrom: shanghaiDayStart(body.effectiveFrom),
        createdBy: actor.staff?.id ?? null,
      });
      if (!row) {
        const text = `渠道 ${channel.code} 已有 ${body.effectiveFrom} 起生效的渠道成本；每个渠道同一天只能有一种计费方式，请选择其他生效日期`;
        throw appError('VALIDATION_FAILED', text, { fields: [{ field: 'effectiveFrom', message: text }] });
      }
      await tx.recordAudit(actor, {
        action: 'create',
        entity: 'channel_cost',
        entityId: row.id,
        before: null,
        after: {
          channelId,
          adChannelCode: channel.code,
          model: row.model,
          ...(row.amountFen !== null ? { amountFen: row.amountFen } : {}),
          ...(row.bps !== null ? { bps: row.bps } : {}),
          effectiveFrom: body.effectiveFrom,
        },
      });
    });
    return this.list(actor, channelId);
  }
}
