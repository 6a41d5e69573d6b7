import type { StaffRole } from '@lm/shared/schemas/auth';
import { noQuery } from '@lm/shared/schemas/common';
import {
  dashboardData,
  FUNNEL_VIEW_STEP_LABELS,
  FUNNEL_VIEW_STEPS,
  type FunnelViewStep,
  funnelArmsData,
  funnelArmsQuery,
  funnelByChannelData,
  funnelByChannelQuery,
  funnelChannelsData,
  funnelData,
  funnelQuery,
  funnelTrendData,
} from '@lm/shared/schemas/funnel';
import { shanghaiDate } from '@lm/shared/time';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { requireStaff } from '../../plugins/app/auth.ts';
import { addDays, FUNNEL_TREND_DASHBOARD_DAYS, resolveRange, scopeChannels } from './rules.ts';
import type { FunnelFilter } from './service.ts';

const tags = ['console: funnel'];
const security = [{ accessToken: [] }];
/** Staff read the funnel; a channel partner reads its own channels' funnel (and nothing else). */
const FUNNEL_READERS: readonly StaffRole[] = ['admin', 'operator', 'viewer', 'channel_partner'];

interface FilterInput {
  from?: string | undefined;
  to?: string | undefined;
  channelCode?: string | undefined;
  channelCodes?: string[] | undefined;
  skin?: number | undefined;
}

/** The query's range and channels after defaults and the caller's channel scope (400 / 403 otherwise). */
function filterOf(req: FastifyRequest, q: FilterInput): FunnelFilter {
  const range = resolveRange(q, shanghaiDate());
  if (!range.ok) throw appError('VALIDATION_FAILED', range.message);
  const requested = [...new Set([...(q.channelCode ? [q.channelCode] : []), ...(q.channelCodes ?? [])])];
  const scope = scopeChannels(req.staffMember!, requested);
  if (!scope.ok) throw appError('FORBIDDEN', scope.message);
  return { from: range.from, to: range.to, channelCodes: scope.codes, skin: q.skin };
}

function echo(f: FunnelFilter) {
  return { from: f.from, to: f.to, channelCodes: f.channelCodes, skin: f.skin ?? null };
}

/** Issue 7: the conversion funnel, its trend, per-channel rows, A/B arms, and the dashboard. */
const funnelRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { funnel } = app.services;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff(FUNNEL_READERS));

    r.get(
      '/api/admin/funnel',
      {
        schema: {
          tags,
          security,
          summary:
            'Funnel: per step visitors, conversion from the previous and first step, drop-off; the steps not on every path beside it',
          querystring: funnelQuery,
          response: { 200: envelope(funnelData) },
        },
      },
      async (req) => {
        const f = filterOf(req, req.query);
        return ok({ ...echo(f), ...(await funnel.funnel(f)) });
      },
    );

    r.get(
      '/api/admin/funnel/trend',
      {
        schema: {
          tags,
          security,
          summary: 'Funnel per day and step',
          querystring: funnelQuery,
          response: { 200: envelope(funnelTrendData) },
        },
      },
      async (req) => {
        const f = filterOf(req, req.query);
        return ok({
          ...echo(f),
          steps: FUNNEL_VIEW_STEPS.map((step) => ({ step, label: FUNNEL_VIEW_STEP_LABELS[step] })),
          days: await funnel.trend(f),
        });
      },
    );

    r.get(
      '/api/admin/funnel/by-channel',
      {
        schema: {
          tags,
          security,
          summary:
            'One row per channel: clicks, visits, logins, submits, authorizations, 授信 (credits), 放款 (loans), conversion',
          querystring: funnelByChannelQuery,
          response: { 200: envelope(funnelByChannelData) },
        },
      },
      async (req) => {
        const f = filterOf(req, req.query);
        const { page, pageSize, sort, order } = req.query;
        const rows = await funnel.byChannel(f, { page, pageSize, sort, order });
        return ok({ ...echo(f), page, pageSize, ...rows });
      },
    );

    r.get(
      '/api/admin/funnel/arms',
      {
        schema: {
          tags,
          security,
          summary: "A/B: a channel's skin arms step by step against the control (two-proportion z-test)",
          querystring: funnelArmsQuery,
          refusals: [404],
          response: { 200: envelope(funnelArmsData) },
        },
      },
      async (req) => {
        const f = filterOf(req, req.query);
        return ok(await funnel.arms(req.query.channelCode, f.from, f.to));
      },
    );

    r.get(
      '/api/admin/funnel/channels',
      {
        schema: {
          tags,
          security,
          summary: 'The channels the caller may pick (a channel partner: its own)',
          response: { 200: envelope(funnelChannelsData) },
        },
      },
      async (req) => {
        const scope = scopeChannels(req.staffMember!, []);
        return ok(scope.ok ? await funnel.channelsFor(scope.codes) : []);
      },
    );
  });

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff());

    r.get(
      '/api/admin/dashboard',
      {
        schema: {
          tags,
          security,
          summary: 'Today vs yesterday (Shanghai) and the last 14 days',
          querystring: noQuery,
          response: { 200: envelope(dashboardData) },
        },
      },
      async () => {
        const today = shanghaiDate();
        const from = addDays(today, -(FUNNEL_TREND_DASHBOARD_DAYS - 1));
        const yesterday = addDays(today, -1);
        const f: FunnelFilter = { from, to: today, channelCodes: null };
        const [trend, todayFunnel, yesterdayFunnel, created, people] = await Promise.all([
          funnel.trend(f),
          funnel.funnel({ ...f, from: today }),
          funnel.funnel({ ...f, from: yesterday, to: yesterday }),
          funnel.createdPerDay(yesterday, today),
          funnel.peoplePerDay(from, today),
        ]);
        const at = (step: FunnelViewStep) => FUNNEL_VIEW_STEPS.indexOf(step);
        const stepOf = (rows: typeof todayFunnel.steps, step: FunnelViewStep) =>
          rows.find((r) => r.step === step)?.count ?? 0;
        /**
         * A step of the funnel: devices the H5 reported (nobody has logged in yet, so there is no person), or
         * persons at 授信 / 放款, on the day of their authorisation (the funnel's rule, FunnelService).
         */
        const funnelFigure = (
          key: string,
          label: string,
          step: FunnelViewStep,
          counts: 'devices' | 'people',
          hint: string,
        ) => ({
          key,
          label,
          today: stepOf(todayFunnel.steps, step),
          yesterday: stepOf(yesterdayFunnel.steps, step),
          counts,
          hint,
        });
        const dayFigure = (
          key: string,
          label: string,
          perDay: Map<string, number>,
          counts: 'people' | 'leads',
          hint: string,
        ) => ({
          key,
          label,
          today: perDay.get(today) ?? 0,
          yesterday: perDay.get(yesterday) ?? 0,
          counts,
          hint,
        });
        return ok({
          today,
          figures: [
            funnelFigure(
              'clicks',
              '渠道点击',
              'click',
              'devices',
              '点击渠道链接的设备数，同一设备同一渠道每天只算一次',
            ),
            funnelFigure(
              'visits',
              '落地页访问',
              'visit_landing',
              'devices',
              '打开落地页的设备数，同一设备每天只算一次',
            ),
            dayFigure(
              'logins',
              '登录用户',
              people.logins,
              'people',
              '今天登录过的人数（含新注册），一人多次登录只算一人',
            ),
            dayFigure(
              'registrations',
              '新注册用户',
              created.users,
              'people',
              '今天第一次登录、新建账号的人数',
            ),
            dayFigure(
              'submits',
              '提交资料用户',
              people.submits,
              'people',
              '今天提交过申请资料的人数，一人多次提交只算一人',
            ),
            dayFigure(
              'authorizations',
              '授权用户',
              people.authorizations,
              'people',
              '今天授权过至少一个产品的人数，一人授权多个产品只算一人',
            ),
            dayFigure(
              'leads',
              '生成线索',
              created.leads,
              'leads',
              '今天生成的线索条数：每个授权的产品一条，一人可有多条',
            ),
            funnelFigure(
              'credits',
              '授信用户',
              'credit',
              'people',
              '今天授权、已获机构授信（含已放款）的人数，一人只算一次；机构晚些回传也计入授权当天',
            ),
            funnelFigure(
              'loans',
              '放款用户',
              'loan',
              'people',
              '今天授权、已获机构放款的人数，一人只算一次；机构晚些回传也计入授权当天',
            ),
          ],
          trend: trend.map((d) => ({
            day: d.day,
            clicks: d.counts[at('click')] ?? 0,
            logins: people.logins.get(d.day) ?? 0,
            submits: people.submits.get(d.day) ?? 0,
            authorizations: people.authorizations.get(d.day) ?? 0,
            credits: d.counts[at('credit')] ?? 0,
            loans: d.counts[at('loan')] ?? 0,
          })),
        });
      },
    );
  });
};

export default funnelRoutes;
