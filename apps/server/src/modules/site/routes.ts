import {
  appIndexIconListData,
  bannerData,
  bindOpenidBody,
  bindOpenidData,
  h5DeviceQuery,
  homeDialogBannerQuery,
  newestVersionData,
  newestVersionQuery,
  pageConfigData,
  pageConfigQuery,
  recordedData,
  reportBody,
  reportDownloadQuery,
  reportLogQuery,
  reportTypeQuery,
  tempLinkData,
  tempLinkOpenQuery,
  tempLinkQuery,
  userInfoLogQuery,
} from '@lm/shared/schemas/site';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { clientMeta, requireStaff, requireUser } from '../../plugins/app/auth.ts';
import { LOCAL_STORAGE_PATH } from '../../providers/storage/index.ts';
import type { AuthUser } from '../auth/service.ts';
import { MANIFEST_CONTENT_TYPE, MANIFEST_KEY } from './manifest-store.ts';
import {
  channelOfPlatformParam,
  sanitizeLogQuery,
  sanitizeReportData,
  stripPersonalNumbers,
  tempLinkRedirect,
  verifyTempLink,
} from './rules.ts';
import type { ReportContext, ReportKind } from './service.ts';

const tags = ['site'];
const reporting = ['reporting'];
const security = [{ accessToken: [] }];

/** The person behind an accessToken header, if any; a report never fails because of its token. */
async function optionalUser(req: FastifyRequest): Promise<AuthUser | null> {
  const raw = req.headers.accesstoken;
  const token = Array.isArray(raw) ? raw[0] : raw;
  if (!token) return null;
  try {
    return (await req.server.services.auth.authenticate(token)).user;
  } catch {
    return null;
  }
}

/** The channel of a call: given explicitly, else the platform_param header's. */
function channelOf(req: FastifyRequest, given?: string): string | undefined {
  return given ?? channelOfPlatformParam(req.headers.platform_param);
}

/**
 * Spec §7 "Reporting and misc" (issue 6): newest app version and the app-download JSON, the
 * download report, the home dialog banner, page configuration, the temporary link, the client
 * reports and the staff WeChat binding. See docs/site.md.
 */
const siteRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { site, manifest } = app.services;

  // After the seeds (buildApp runs them before ready): the JSON reflects the versions at start.
  app.addHook('onReady', async () => {
    await site.publishManifest(true).catch(() => {});
  });

  /** A report of `kind` with the caller's user (if any), device, IP and channel. */
  async function report(
    req: FastifyRequest,
    kind: ReportKind,
    name: string | null,
    payload: Record<string, unknown>,
    body: { fingerprint?: string | undefined; adChannelCode?: string | undefined } = {},
    user?: AuthUser | null,
  ) {
    const meta = clientMeta(req);
    const who = user === undefined ? await optionalUser(req) : user;
    const ctx: ReportContext = {
      ip: meta.ip,
      userId: who?.id ?? null,
      fingerprint: meta.fingerprint ?? body.fingerprint,
      channelCode: channelOf(req, body.adChannelCode) ?? who?.adChannelCode ?? undefined,
    };
    return ok(await site.report(kind, name, payload, ctx));
  }

  // --- app versions ---------------------------------------------------------------------------

  app.get(
    '/api/appVersion/newestVersion',
    {
      schema: {
        tags,
        summary:
          'The newest published app version of a platform (null when none), with the app-download JSON URL',
        querystring: newestVersionQuery,
        response: { 200: envelope(newestVersionData) },
      },
    },
    async (req) => ok(await site.newest(req.query.platform)),
  );

  if (manifest.kind === 'local') {
    app.get(
      `${LOCAL_STORAGE_PATH}/${MANIFEST_KEY}`,
      {
        schema: {
          tags,
          summary: 'Local store: the app-download JSON (the H5 adds ?t=<timestamp>; never cached)',
          refusals: [404],
        },
      },
      async (_req, reply) => {
        const text = await manifest.read();
        if (text === null) throw appError('NOT_FOUND', '下载配置暂未生成，请稍后重试');
        return reply
          .header('content-type', MANIFEST_CONTENT_TYPE)
          .header('cache-control', 'no-cache')
          .header('x-content-type-options', 'nosniff')
          .send(text);
      },
    );
  }

  app.get(
    '/api/reportUserDownloadApp',
    {
      schema: {
        tags: reporting,
        summary: 'The person tapped download (stored with device hash, channel and Shanghai day)',
        querystring: reportDownloadQuery,
        response: { 200: envelope(recordedData) },
      },
    },
    async (req) => report(req, 'download', req.query.platform ?? null, {}),
  );

  // --- banners and page configuration --------------------------------------------------------------

  app.get(
    '/api/banner/homeDialogBanner',
    {
      schema: {
        tags,
        summary:
          "The home dialog banner for the channel (query, else platform_param's): enabled, in its time " +
          'window, lowest sort first; null when none',
        querystring: homeDialogBannerQuery,
        response: { 200: envelope(bannerData.nullable()) },
      },
    },
    async (req) => ok(await site.homeDialogBanner(channelOf(req, req.query.adChannelCode))),
  );

  app.get(
    '/api/pageConfig/getPageConfigByCode',
    {
      schema: {
        tags,
        summary: 'A page configuration by code (404 when unknown)',
        querystring: pageConfigQuery,
        refusals: [404],
        response: { 200: envelope(pageConfigData) },
      },
    },
    async (req) => ok(await site.pageConfig(req.query.code)),
  );

  app.get(
    '/api/pageConfig/getAppIndexIconList',
    {
      schema: {
        tags,
        summary: 'Home shortcut icons [{key,title,icon,path}] of the appIndexIconList configuration',
        response: { 200: envelope(appIndexIconListData) },
      },
    },
    async () => ok(await site.appIndexIcons()),
  );

  // --- temporary link ---------------------------------------------------------------------------

  app.get(
    '/api/common/temp/link',
    {
      schema: {
        tags,
        summary:
          'A signed link to share (download page or customer service), valid 10 minutes; it carries the ' +
          'channel',
        querystring: tempLinkQuery,
        refusals: [429],
        response: { 200: envelope(tempLinkData) },
      },
    },
    async (req) =>
      ok(await site.tempLink(req.query.type, channelOf(req, req.query.adChannelCode), clientMeta(req).ip)),
  );

  app.get(
    '/api/common/temp/link/open',
    {
      logLevel: 'warn',
      schema: {
        tags,
        summary:
          'Opens a temporary link: 302 to its page with the channel; expired or forged: 302 to the page ' +
          'with linkExpired=1',
        querystring: tempLinkOpenQuery,
        response: { 302: z.undefined().describe('To the page (Location); never another site') },
      },
    },
    async (req, reply) => {
      const check = verifyTempLink(site.tempLinkKey, req.query.token, new Date());
      return reply.header('cache-control', 'no-store').redirect(tempLinkRedirect(check), 302);
    },
  );

  // --- client reports ---------------------------------------------------------------------------

  app.post(
    '/api/report/type',
    {
      schema: {
        tags: reporting,
        summary: 'A typed client event (page view, feature use …) with optional small data',
        querystring: reportTypeQuery,
        body: reportBody,
        refusals: [429],
        response: { 200: envelope(recordedData) },
      },
    },
    async (req) => report(req, 'type', req.query.type, { data: sanitizeReportData(req.body.data) }, req.body),
  );

  app.post(
    '/api/report/click',
    {
      schema: {
        tags: reporting,
        summary: 'A click on a banner, card or button (type names it) with optional small data',
        querystring: reportTypeQuery,
        body: reportBody,
        refusals: [429],
        response: { 200: envelope(recordedData) },
      },
    },
    async (req) =>
      report(req, 'click', req.query.type, { data: sanitizeReportData(req.body.data) }, req.body),
  );

  app.put(
    '/api/report/h5device',
    {
      schema: {
        tags: reporting,
        summary: 'The H5 device at the start of a session (platform; screen, language … as data)',
        querystring: h5DeviceQuery,
        body: reportBody,
        refusals: [429],
        response: { 200: envelope(recordedData) },
      },
    },
    async (req) =>
      report(
        req,
        'h5device',
        req.query.devicePlatForm,
        { data: sanitizeReportData(req.body.data) },
        req.body,
      ),
  );

  app.post(
    '/api/report/log',
    {
      // The request line would carry the content: not logged (the stored copy is cleaned).
      logLevel: 'warn',
      schema: {
        tags: reporting,
        summary: 'A client log line (≤ 2000 characters); phone-like and ID-like numbers are removed',
        querystring: reportLogQuery,
        body: reportBody,
        refusals: [429],
        response: { 200: envelope(recordedData) },
      },
    },
    async (req) => report(req, 'log', null, { content: stripPersonalNumbers(req.query.content) }, req.body),
  );

  app.get(
    '/api/user/info/log',
    {
      logLevel: 'warn',
      onRequest: requireUser,
      schema: {
        tags: reporting,
        security,
        summary:
          "The logged-in person's page query, stored capped (20 keys, 200 characters each) without " +
          'personal values',
        querystring: userInfoLogQuery,
        refusals: [429],
        response: { 200: envelope(recordedData) },
      },
    },
    async (req) => {
      const { values, droppedKeys } = sanitizeLogQuery(req.query);
      return report(
        req,
        'userInfoLog',
        null,
        { query: values, ...(droppedKeys ? { droppedKeys } : {}) },
        {},
        req.user,
      );
    },
  );

  // --- staff WeChat binding -------------------------------------------------------------------------

  app.put(
    '/api/crm/admin/org/employee/wechat/bindOpenid',
    {
      onRequest: requireStaff(),
      schema: {
        tags: ['staff'],
        security,
        summary:
          'Binds a WeChat openid to the calling staff member (encrypted); refused when another staff ' +
          'member holds it',
        body: bindOpenidBody,
        refusals: [404, 429],
        response: { 200: envelope(bindOpenidData) },
      },
    },
    async (req) => ok(await site.bindOpenid(req.staffMember!.id, req.body.openid, actorOf(req))),
  );
};

export default siteRoutes;
