import {
  adSandboxEventData,
  adSandboxEventsQuery,
  adSandboxPlatformParams,
  baiduInvalidBody,
  baiduUploadBody,
  kuaishouActivateQuery,
  oceanengineConversionBody,
  tencentUserActionsBody,
  tencentUserActionsQuery,
} from '@lm/shared/schemas/ad-sandbox';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { AdSandboxRepository, fenOfYuan } from './sandbox-repository.ts';

const tags = ['dev'];

/** The `bd_vid` a logidUrl carries (the schema made sure there is one); never throws on an odd URL. */
function bdVidOf(logidUrl: string): string {
  const raw = /[?&]bd_vid=([^&#]+)/.exec(logidUrl)?.[1] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * The local ad-platform sandboxes (issue 47.3): the default address of the conversion reports outside
 * production. Each route takes its platform's documented request (a bad one is refused with the reason),
 * answers as the platform answers, and keeps what it accepted for `GET /api/dev/ad-sandbox/{platform}/events`.
 */
const adSandboxRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  if (app.config.NODE_ENV === 'production') return;
  const sandbox = new AdSandboxRepository(app.database.db);

  app.post(
    '/api/dev/ad-sandbox/oceanengine/api/v2/conversion',
    {
      schema: {
        tags,
        summary: 'Ocean Engine sandbox: a conversion (event_type, context.ad.callback, timestamp in ms)',
        body: oceanengineConversionBody,
        response: { 200: z.object({ code: z.literal(0), message: z.string() }) },
      },
    },
    async (req) => {
      const b = req.body;
      const pay = b.properties?.pay_amount;
      await sandbox.accept('oceanengine', [
        {
          clickId: b.context.ad.callback,
          eventType: b.event_type,
          valueFen: pay === undefined ? null : fenOfYuan(pay),
          request: b as Record<string, unknown>,
        },
      ]);
      return { code: 0 as const, message: '成功' };
    },
  );

  app.get(
    '/api/dev/ad-sandbox/kuaishou/track/activate',
    {
      schema: {
        tags,
        summary:
          'Kuaishou sandbox: a callback (callback, event_type, event_time in ms, purchase_amount in yuan)',
        querystring: kuaishouActivateQuery,
        response: { 200: z.object({ result: z.literal(1) }) },
      },
    },
    async (req) => {
      const q = req.query;
      await sandbox.accept('kuaishou', [
        {
          clickId: q.callback,
          eventType: q.event_type,
          valueFen: q.purchase_amount === undefined ? null : fenOfYuan(q.purchase_amount),
          request: q as Record<string, unknown>,
        },
      ]);
      return { result: 1 as const };
    },
  );

  app.post(
    '/api/dev/ad-sandbox/baidu/ocpcapi/api/uploadConvertData',
    {
      schema: {
        tags,
        summary: 'Baidu sandbox: uploadConvertData (token, conversionTypes with logidUrl carrying bd_vid)',
        body: baiduUploadBody,
        response: {
          200: z.object({ header: z.object({ status: z.literal(0), desc: z.string() }) }),
        },
      },
    },
    async (req) => {
      const { token: _token, ...rest } = req.body;
      await sandbox.accept(
        'baidu',
        req.body.conversionTypes.map((c) => ({
          clickId: bdVidOf(c.logidUrl),
          eventType: String(c.newType),
          valueFen: c.convertValue ?? null,
          // The token is a credential: not kept.
          request: { ...rest, conversionTypes: [c] },
        })),
      );
      return { header: { status: 0 as const, desc: 'success' } };
    },
  );

  app.post(
    '/api/dev/ad-sandbox/baidu/ocpcapi/api/uploadInvalidConvertData',
    {
      schema: {
        tags,
        summary:
          'Baidu sandbox: uploadInvalidConvertData (token, invalidConversionTypes: logidUrl, convertType, convertTime in s); listed as invalid:<convertType>',
        body: baiduInvalidBody,
        response: {
          200: z.object({ header: z.object({ status: z.literal(0), desc: z.string() }) }),
        },
      },
    },
    async (req) => {
      const { token: _token, ...rest } = req.body;
      await sandbox.accept(
        'baidu',
        req.body.invalidConversionTypes.map((c) => ({
          clickId: bdVidOf(c.logidUrl),
          eventType: `invalid:${c.convertType}`,
          valueFen: null,
          request: { ...rest, invalidConversionTypes: [c] },
        })),
      );
      return { header: { status: 0 as const, desc: 'success' } };
    },
  );

  app.post(
    '/api/dev/ad-sandbox/tencent/v1.3/user_actions/add',
    {
      schema: {
        tags,
        summary:
          'Tencent sandbox: user_actions/add (access_token, timestamp in s, nonce; actions with trace.click_id)',
        querystring: tencentUserActionsQuery,
        body: tencentUserActionsBody,
        response: { 200: z.object({ code: z.literal(0), message: z.string() }) },
      },
    },
    async (req) => {
      sandbox.checkFresh(req.query.timestamp);
      await sandbox.accept(
        'tencent',
        req.body.actions.map((a) => ({
          clickId: a.trace.click_id,
          eventType: a.action_type,
          valueFen: a.action_param?.value ?? null,
          request: {
            account_id: req.body.account_id,
            user_action_set_id: req.body.user_action_set_id,
            action: a,
          },
        })),
      );
      return { code: 0 as const, message: '' };
    },
  );

  app.get(
    '/api/dev/ad-sandbox/:platform/events',
    {
      schema: {
        tags,
        summary:
          'What a sandbox platform received, oldest first (?callback= or ?clickid= filters on the click it named)',
        params: adSandboxPlatformParams,
        querystring: adSandboxEventsQuery,
        response: { 200: envelope(z.array(adSandboxEventData)) },
      },
    },
    async (req) => {
      const rows = await sandbox.events(req.params.platform, req.query.callback ?? req.query.clickid);
      return ok(
        rows.map((r) => ({
          platform: req.params.platform,
          clickId: r.clickId,
          eventType: r.eventType,
          valueFen: r.valueFen,
          receivedAt: r.receivedAt.toISOString(),
          request: r.request,
        })),
      );
    },
  );
};

export default adSandboxRoutes;
