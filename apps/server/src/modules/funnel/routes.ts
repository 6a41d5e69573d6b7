import type { StaffRole } from '@lm/shared/schemas/auth';
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
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { shanghaiDate } from '../../lib/time.ts';
import { requireStaff } from '../../plugins/app/auth.ts';
import { addDays, FUNNEL_TREND_DASHBOARD_DAYS, resolveRange, scopeChannels } from './rules.ts';
import { type FunnelFilter, FunnelService } from './service.ts';

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
  const funnel = new FunnelService(app.database.db);

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff(FUNNEL_READERS));

    r.get(
      '/api/admin/funnel',
      {
        schema: {
          tags,
          security,
          summary: 'Funnel: per step visitors, conversion from the previous and first step, drop-off',
          querystring: funnelQuery,
          response: { 200: envelope(funnelData) },
        },
      },
      async (req) => {
        const f = filterOf(req, req.query);
        return ok({ ...echo(f), steps: await funnel.funnel(f) });
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
          summary: 'One row per channel: clicks, visits, logins, submits, authorizations, conversion',
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
          querystring: z.object({}),
          response: { 200: envelope(dashboardData) },
        },
      },
      async () => {
        const today = shanghaiDate();
        const from = addDays(today, -(FUNNEL_TREND_DASHBOARD_DAYS - 1));
        const yesterday = addDays(today, -1);
        const f: FunnelFilter = { from, to: today, channelCodes: null };
        const [trend, todayFunnel, yesterdayFunnel, created] = await Promise.all([
          funnel.trend(f),
          funnel.funnel({ ...f, from: today }),
          funnel.funnel({ ...f, from: yesterday, to: yesterday }),
          funnel.createdPerDay(yesterday, today),
        ]);
        const at = (step: FunnelViewStep) => FUNNEL_VIEW_STEPS.indexOf(step);
        const stepFigure = (key: string, label: string, step: FunnelViewStep) => ({
          key,
          label,
          today: todayFunnel[at(step)]!.count,
          yesterday: yesterdayFunnel[at(step)]!.count,
        });
        return ok({
          today,
          figures: [
            stepFigure('clicks', '渠道点击', 'click'),
            stepFigure('visits', '落地页访问', 'visit_landing'),
            stepFigure('logins', '登录', 'login'),
            {
              key: 'registrations',
              label: '新注册用户',
              today: created.users.get(today) ?? 0,
              yesterday: created.users.get(yesterday) ?? 0,
            },
            stepFigure('submits', '提交表单', 'submit_form'),
            stepFigure('authorizations', '授权', 'authorize'),
            {
              key: 'leads',
              label: '生成线索',
              today: created.leads.get(today) ?? 0,
              yesterday: created.leads.get(yesterday) ?? 0,
            },
          ],
          trend: trend.map((d) => ({
            day: d.day,
            clicks: d.counts[at('click')] ?? 0,
            logins: d.counts[at('login')] ?? 0,
            submits: d.counts[at('submit_form')] ?? 0,
            authorizations: d.counts[at('authorize')] ?? 0,
          })),
        });
      },
    );
  });
};

export default funnelRoutes;
