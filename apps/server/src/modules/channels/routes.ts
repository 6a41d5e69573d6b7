import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import type { H5Config } from '@lm/shared/channel';
import { h5ConfigWithPreviewQuery } from '@lm/shared/schemas/admin-channels';
import {
  adChannelQuery,
  channelDetailData,
  channelPlanData,
  exchangeRouteCodeQuery,
  h5ConfigData,
  reportClickData,
  reportClickQuery,
} from '@lm/shared/schemas/channel';
import type { FastifyPluginAsync } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { preferredEncoding } from '../../lib/web-ssr.ts';
import { clientMeta, platformFingerprint } from '../../plugins/app/auth.ts';
import { EDGE_CACHE_SECONDS, H5_CONFIG_TTL_SECONDS } from './cache.ts';
import { previewRow, verifyPreview } from './preview.ts';
import { withSkin } from './rules.ts';
import type { H5Answer } from './service.ts';

const tags = ['channel'];

/** The same for everybody: browsers keep it 30 s, a shared cache (nginx, ADR 062) 5 s. */
const PUBLIC_CACHE = `public, max-age=${H5_CONFIG_TTL_SECONDS}, s-maxage=${EDGE_CACHE_SECONDS}`;
const PRIVATE_CACHE = `private, max-age=${H5_CONFIG_TTL_SECONDS}`;
const H5_CONFIG_URL = '/api/adChannel/h5Config';
const h5ConfigResponse = envelope(h5ConfigData);
const serializeH5Config = serializerCompiler({
  schema: h5ConfigResponse,
  method: 'GET',
  url: H5_CONFIG_URL,
  httpStatus: '200',
});
/** One h5Config answer as sent: the JSON, and its brotli and gzip forms made on first demand. */
interface SentAnswer {
  json: string;
  br?: Buffer;
  gzip?: Buffer;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/**
 * The answer's own headers: one the same for everybody (browsers and shared caches may keep it), and an A/B one,
 * which depends on the visitor (not for shared caches).
 */
const ANSWER_HEADERS = {
  public: [
    ['cache-control', PUBLIC_CACHE],
    ['vary', 'accept-encoding'],
  ],
  split: [
    ['cache-control', PRIVATE_CACHE],
    ['vary', 'platform_param, accept-encoding'],
  ],
} as const;
/**
 * h5Config answers as sent, per cached channel object and skin: serialised (and checked against the
 * response schema) by the route's own serializer once, not per request (issue 17.3), and compressed once
 * per encoding a phone accepts (1.9 KB of JSON is ~0.6 KB in brotli: less to send on the ad burst's first
 * call, for the phone and for the server). A channel object leaves the cache when it changes, and its
 * answers with it.
 */
const serialized = new WeakMap<H5Config, Map<number, SentAnswer>>();
function h5ConfigAnswer(answer: H5Answer): SentAnswer {
  let bySkin = serialized.get(answer.channel);
  if (!bySkin) {
    bySkin = new Map();
    serialized.set(answer.channel, bySkin);
  }
  let sent = bySkin.get(answer.skin);
  if (sent === undefined) {
    sent = { json: serializeH5Config(ok(answer.config)) };
    bySkin.set(answer.skin, sent);
  }
  return sent;
}

function encoded(sent: SentAnswer, encoding: 'br' | 'gzip'): Buffer {
  if (encoding === 'br') {
    sent.br ??= brotliCompressSync(sent.json, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      },
    });
    return sent.br;
  }
  sent.gzip ??= gzipSync(sent.json, { level: 9 });
  return sent.gzip;
}

/** Spec §7 "Channel" (location calls live in the geo module). */
const channelRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { channels } = app.services;

  app.get(
    '/api/getAdChannel',
    {
      schema: {
        tags,
        summary: 'Channel detail: status, link type, excluded cities, plan target URL',
        querystring: adChannelQuery,
        refusals: [404],
        response: { 200: envelope(channelDetailData) },
      },
    },
    async (req) => ok(await channels.detail(req.query.adChannelCode)),
  );

  app.get(
    '/api/adChannel/plan/adChannelCode',
    {
      schema: {
        tags,
        summary: "A channel's plan target URL",
        querystring: adChannelQuery,
        refusals: [404],
        response: { 200: envelope(channelPlanData) },
      },
    },
    async (req) => ok(await channels.plan(req.query.adChannelCode)),
  );

  app.get(
    '/api/adChannel/exchange/adChannelCode',
    {
      schema: {
        tags,
        summary: 'Exchange a route code for a channel code and plan target URL',
        querystring: exchangeRouteCodeQuery,
        refusals: [404],
        response: { 200: envelope(channelPlanData) },
      },
    },
    async (req) => ok(await channels.exchangeForVisitor(req.query.adRouteCode)),
  );

  app.get(
    H5_CONFIG_URL,
    {
      schema: {
        tags,
        summary:
          'Everything the H5 needs for a channel (default configuration without or for an unknown code); ' +
          "with the console's previewToken, the unsaved draft's configuration (never cached)",
        querystring: h5ConfigWithPreviewQuery,
        refusals: [401],
        response: { 200: h5ConfigResponse },
      },
    },
    async (req, reply) => {
      if (req.query.previewToken) {
        const { draft, skin } = verifyPreview(app.services.keys.ring, req.query.previewToken);
        reply.header('cache-control', 'no-store');
        return ok(withSkin(channels.configOf(previewRow(draft)), skin));
      }
      const code = req.query.adChannelCode;
      // Only an A/B channel's answer depends on who asks: its arm follows the fingerprint, or the IP
      // without one (a first visit computes it after this call). Worked out only for such a channel.
      const visitor = () => {
        const meta = clientMeta(req);
        return meta.fingerprint ?? `ip:${meta.ip}`;
      };
      const answer = await channels.h5Answer(code, visitor);
      for (const [name, value] of ANSWER_HEADERS[answer.split ? 'split' : 'public'])
        reply.header(name, value);
      reply.type(JSON_TYPE);
      const sent = h5ConfigAnswer(answer);
      const accept = req.headers['accept-encoding'];
      const encoding = accept === undefined ? null : preferredEncoding(accept);
      if (encoding) return reply.header('content-encoding', encoding).send(encoded(sent, encoding) as never);
      // A JSON string is sent as it is (Fastify serialises only objects); the type provider knows only objects.
      return reply.send(sent.json as never);
    },
  );

  app.get(
    '/api/reportAdChannelClick',
    {
      schema: {
        tags,
        summary: 'Count a channel click (once per fingerprint per channel per day; flagged without one)',
        querystring: reportClickQuery,
        refusals: [404, 429],
        response: { 200: envelope(reportClickData) },
      },
    },
    async (req) => {
      const { counted, flagged } = await channels.reportClick(
        {
          adChannelCode: req.query.adChannelCode,
          // The query's fingerprint, else the platform_param header's.
          fingerprint: req.query.fingerprint ?? platformFingerprint(req.headers.platform_param),
          abTestType: req.query.abTestType,
        },
        req.ip,
      );
      return ok({ counted, flagged });
    },
  );
};

export default channelRoutes;
