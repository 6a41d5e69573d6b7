import { parseChannelFlags } from '@lm/shared/channel';
import {
  FUNNEL_OUTCOME_STEPS,
  FUNNEL_VIEW_STEP_LABELS,
  FUNNEL_VIEW_STEPS,
  type FunnelArm,
  type FunnelArmsData,
  type FunnelByChannelQuery,
  type FunnelViewStep,
} from '@lm/shared/schemas/funnel';
import { shanghaiDayBounds, shanghaiDayStart } from '@lm/shared/time';
import { appError } from '../../lib/errors.ts';
import type { FunnelFilter, FunnelRepository } from './repository.ts';
import {
  assembleFunnel,
  assembleTrend,
  CONTROL_RESULT,
  COUNTED_OUTCOMES,
  type CohortLead,
  channelRows,
  compareArm,
  MIN_SAMPLE,
  outcomeStepRows,
  type StepCounts,
} from './rules.ts';

export type { FunnelFilter } from './repository.ts';

/**
 * Event steps the funnel counts: every view step but the click (channel_clicks) and the lenders' outcomes
 * (leads).
 */
const EVENT_STEPS = FUNNEL_VIEW_STEPS.filter(
  (s) => s !== 'click' && !(FUNNEL_OUTCOME_STEPS as readonly string[]).includes(s),
);

/** The step every arm's rates are measured from. */
export const ARMS_BASE_STEP: FunnelViewStep = 'click';

/**
 * Funnel figures from `events` (once per session and step, spec §1), `channel_clicks` (once per device, channel
 * and day) and, for the lenders' outcomes 授信 and 放款 (issue 47.6), `leads.outcome`, read through
 * FunnelRepository.
 *
 * Which day (and channel, and skin) an outcome counts on: the day of the authorisation that made the lead —
 * the person's `authorize` event, whose channel and skin it takes too — never the day the lender's answer
 * arrived. An operator reads a funnel top to bottom as one group of people thinning out: of those who
 * authorised on these days through these channels, how many got an approval, how many a loan. Counted on the
 * day the answer arrived, a short range would set last week's authorisations against this week's approvals
 * (more 授信 than 授权 on a quiet day, a channel's loans landing on days it bought no traffic) and the rates
 * would mean nothing. The price: a recent day's 授信 and 放款 keep growing for as long as lenders take to
 * answer, and an approval later declined leaves the count again — the figures of a day settle only then.
 */
export class FunnelService {
  constructor(private readonly repo: FunnelRepository) {}

  /** The leads of the filter's authorisation cohorts that reached 授信 or 放款. */
  private cohort(f: FunnelFilter): Promise<CohortLead[]> {
    return this.repo.cohortLeads(f, COUNTED_OUTCOMES);
  }

  /** Per step: visitors and sessions, in funnel order with conversions and drop-off. */
  async funnel(f: FunnelFilter) {
    if (f.channelCodes?.length === 0) return assembleFunnel({});
    const [eventRows, clicks, cohort] = await Promise.all([
      this.repo.visitorsPerStep(f, EVENT_STEPS),
      this.repo.clickCount(f),
      this.cohort(f),
    ]);
    const counts: StepCounts = { click: { count: clicks, sessions: clicks } };
    for (const r of eventRows) counts[r.step as FunnelViewStep] = { count: r.count, sessions: r.sessions };
    for (const r of outcomeStepRows(cohort, () => null))
      counts[r.step] = { count: r.count, sessions: r.sessions };
    return assembleFunnel(counts);
  }

  /** Per day and step: visitors (clicks: counted clicks; 授信, 放款: persons); every day of the range. */
  async trend(f: FunnelFilter) {
    if (f.channelCodes?.length === 0) return assembleTrend(f.from, f.to, []);
    const [eventRows, clickRows, cohort] = await Promise.all([
      this.repo.visitorsPerDayAndStep(f, EVENT_STEPS),
      this.repo.clicksPerDay(f),
      this.cohort(f),
    ]);
    return assembleTrend(f.from, f.to, [
      ...eventRows,
      ...clickRows.map((r) => ({ ...r, step: 'click' })),
      ...outcomeStepRows(cohort, (l) => l.day).map((r) => ({ day: r.key, step: r.step, count: r.count })),
    ]);
  }

  /** One row per channel (clicks, landing visits, logins, submits, authorizations, 授信, 放款, conversion). */
  async byChannel(f: FunnelFilter, page: Pick<FunnelByChannelQuery, 'sort' | 'order' | 'page' | 'pageSize'>) {
    const wanted = ['visit_landing', 'login', 'submit_form', 'authorize'];
    if (f.channelCodes?.length === 0) return channelRows([], [], page);
    const [known, eventRows, clickRows, cohort] = await Promise.all([
      this.channelsFor(f.channelCodes),
      this.repo.visitorsPerChannelAndStep(
        f,
        EVENT_STEPS.filter((s) => wanted.includes(s)),
      ),
      this.repo.clicksPerChannel(f),
      this.cohort(f),
    ]);
    return channelRows(
      // Every channel asked for (all of them without a filter) gets a row, quiet ones with zeros.
      known,
      [
        ...eventRows.map((r) => ({ ...r, adChannelCode: r.adChannelCode ?? '' })),
        ...clickRows.map((r) => ({ ...r, step: 'click' })),
        ...outcomeStepRows(cohort, (l) => l.adChannelCode ?? '').map((r) => ({
          adChannelCode: r.key,
          step: r.step,
          count: r.count,
        })),
      ],
      page,
    );
  }

  /**
   * A channel's skin arms: the configured arms in order (the first is the control), then any other
   * skin seen in the range; without configured arms the channel's own skin is the control. For each
   * step, the arm's rate from ARMS_BASE_STEP and the z-test against the control.
   */
  async arms(code: string, from: string, to: string): Promise<FunnelArmsData> {
    const channel = await this.repo.channelSkins(code);
    if (!channel) throw appError('NOT_FOUND', '渠道不存在');
    const f: FunnelFilter = { from, to, channelCodes: [code] };
    const [eventRows, clickRows, cohort] = await Promise.all([
      this.repo.visitorsPerSkinAndStep(f, EVENT_STEPS),
      this.repo.clicksPerSkin(f),
      this.cohort(f),
    ]);
    const bySkin = new Map<number | null, Partial<Record<FunnelViewStep, number>>>();
    const add = (skin: number | null, step: string, n: number) => {
      const m = bySkin.get(skin) ?? {};
      m[step as FunnelViewStep] = (m[step as FunnelViewStep] ?? 0) + n;
      bySkin.set(skin, m);
    };
    for (const r of eventRows) add(r.skin, r.step, r.count);
    for (const r of clickRows) add(r.skin, 'click', r.count);
    for (const r of outcomeStepRows(cohort, (l) => l.skin)) add(r.key, r.step, r.count);

    const configured = (channel.skinArms ?? []).filter((a) => a.weight > 0);
    const order: { skin: number | null; weight: number | null }[] = configured.length
      ? configured.map((a) => ({ skin: a.skin, weight: a.weight }))
      : [{ skin: parseChannelFlags(channel.flags).skin, weight: null }];
    const seen = [...bySkin.keys()]
      .filter((s) => !order.some((o) => o.skin === s))
      .sort((a, b) => (a ?? Number.MAX_SAFE_INTEGER) - (b ?? Number.MAX_SAFE_INTEGER));
    for (const skin of seen) order.push({ skin, weight: null });

    const control = bySkin.get(order[0]!.skin) ?? {};
    const controlBase = control[ARMS_BASE_STEP] ?? 0;
    const arms: FunnelArm[] = order.map(({ skin, weight }, i) => {
      const c = bySkin.get(skin) ?? {};
      const base = c[ARMS_BASE_STEP] ?? 0;
      return {
        skin,
        weight,
        isControl: i === 0,
        steps: FUNNEL_VIEW_STEPS.map((step) => {
          const n = c[step] ?? 0;
          return {
            step,
            label: FUNNEL_VIEW_STEP_LABELS[step],
            count: n,
            rate: base > 0 ? n / base : null,
            test:
              i === 0 || step === ARMS_BASE_STEP
                ? { ...CONTROL_RESULT, verdictText: i === 0 ? '对照组' : '基准步骤' }
                : compareArm(n, base, control[step] ?? 0, controlBase),
          };
        }),
      };
    });
    return { from, to, adChannelCode: code, baseStep: ARMS_BASE_STEP, minSample: MIN_SAMPLE, arms };
  }

  /** The channels a caller may pick: every channel, or only `codes`. */
  async channelsFor(codes: string[] | null) {
    if (codes?.length === 0) return [];
    return this.repo.channelNames(codes);
  }

  /**
   * People (distinct user ids) on each Shanghai day of the range: who logged in (a session began),
   * who submitted the application form (a form or automatic-form match run) and who authorised at
   * least one product (a consent). Unlike the H5's events these count persons, not devices.
   */
  async peoplePerDay(from: string, to: string) {
    const start = shanghaiDayStart(from);
    const end = shanghaiDayBounds(to).end;
    return this.repo.peoplePerDay(start, end);
  }

  /** Registrations and leads created on each Shanghai day of the range. */
  async createdPerDay(from: string, to: string) {
    const start = shanghaiDayStart(from);
    const end = shanghaiDayBounds(to).end;
    return this.repo.createdPerDay(start, end);
  }
}
