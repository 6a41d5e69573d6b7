import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import type { H5Config } from '@lm/shared/channel';
import { h5ConfigWithPreviewQuery } from '@lm/shared/schemas/admin-channels';
import {
  adChannelQuery,
  channelDetailData,
  channelPlanData,
  exchangeRouteCodeQuery,
  h5ConfigData,
  type ReportClickQuery,
  reportClickData,
  reportClickQuery,
} from '@lm/shared/schemas/channel';
import { parse as parseQueryString } from 'fast-querystring';
import type { FastifyPluginAsync } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import type { FrontAnswer, FrontEncoding, FrontReply, FrontVariant } from '../../lib/front-answers.ts';
import { preferredEncoding } from '../../lib/web-ssr.ts';
import { clientMeta, platformFingerprint } from '../../plugins/app/auth.ts';
import { errorAnswer } from '../../plugins/app/errors.ts';
import { wellFormed } from '../../plugins/app/well-formed.ts';
import { API_HEADERS } from '../../plugins/external/security.ts';
import { EDGE_CACHE_SECONDS, H5_CONFIG_TTL_SECONDS } from './cache.ts';
import { previewRow, verifyPreview } from './preview.ts';
import { withSkin } from './rules.ts';
import type { H5Answer } from './service.ts';

const tags = ['channel'];

const CLICK_URL = '/api/reportAdChannelClick';
/** The click report's answers (reportClickData), as the route's serializer would write them. */
const clickAnswer = (counted: boolean, flagged: boolean) => JSON.stringify(ok({ counted, flagged }));
const CLICK_COUNTED = clickAnswer(true, false);
const CLICK_REPEATED = clickAnswer(false, false);
const CLICK_FLAGGED = clickAnswer(false, true);
const clickBody = (outcome: { counted: boolean; flagged: boolean }) =>
  outcome.flagged ? CLICK_FLAGGED : outcome.counted ? CLICK_COUNTED : CLICK_REPEATED;

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
  /** The public answer's forms as the front gives them again (lib/front-answers.ts), made on first demand. */
  front?: Partial<Record<FrontEncoding, FrontVariant>>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/**
 * The answer's own headers, in the order the route sets them (after the request id and API_HEADERS), for an
 * answer the same for everybody and for an A/B one, which depends on the visitor: not for shared caches.
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
const API_HEADER_LIST = Object.entries(API_HEADERS).flat();
/**
 * The API headers with the public answer's own over them: its Cache-Control replaces the API set's
 * `no-store` in that header's place, as Fastify's reply keeps a header set again where it was first set.
 */
const PUBLIC_HEADER_LIST = Object.entries({
  ...API_HEADERS,
  ...Object.fromEntries(ANSWER_HEADERS.public),
}).flat();

/** A JSON answer as the front writes it, with the headers Fastify's answer of it has (ADR 046). */
function jsonReply(status: number, json: string): FrontReply {
  const body = Buffer.from(json, 'utf8');
  return {
    status,
    headers: [...API_HEADER_LIST, 'content-type', JSON_TYPE, 'content-length', String(body.length)],
    body,
  };
}
/** The click report's three answers, made once. */
const CLICK_REPLIES = new Map(
  [CLICK_COUNTED, CLICK_REPEATED, CLICK_FLAGGED].map((json) => [json, jsonReply(200, json)]),
);
/** Fastify's own parse of a query (find-my-way's querystringParser). */
const parseQuery = (query: string): unknown => (query.length === 0 ? {} : parseQueryString(query));

/** The public answer in one encoding, with the headers the route's own answer has (the front gives it). */
function frontVariant(sent: SentAnswer, encoding: FrontEncoding): FrontVariant {
  sent.front ??= {};
  let variant = sent.front[encoding];
  if (variant === undefined) {
    const body = encoding === 'identity' ? Buffer.from(sent.json, 'utf8') : encoded(sent, encoding);
    variant = {
      headers: [
        ...PUBLIC_HEADER_LIST,
        'content-type',
        JSON_TYPE,
        ...(encoding === 'identity' ? [] : ['content-encoding', encoding]),
        'content-length',
        String(body.length),
      ],
      body,
    };
    sent.front[encoding] = variant;
  }
  return variant;
}

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
  /** One click, as the route and its front take it: the query's fingerprint, else the platform_param header's. */
  const reportClick = (query: ReportClickQuery, platformParam: string | string[] | undefined, ip: string) =>
    channels.reportClick(
      {
        adChannelCode: query.adChannelCode,
        fingerprint: query.fingerprint ?? platformFingerprint(platformParam),
        abTestType: query.abTestType,
      },
      ip,
    );
  const frontAnswerOf = (code: string | undefined, channel: H5Config, sent: SentAnswer): FrontAnswer => ({
    route: H5_CONFIG_URL,
    current: () => channels.isCurrent(code, channel),
    variant: (encoding) => frontVariant(sent, encoding),
  });

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
      // From the L1 without a promise when it has the code (the ad-burst path), else through the caches.
      const answer = channels.h5AnswerNow(code, visitor) ?? (await channels.h5Answer(code, visitor));
      for (const [name, value] of ANSWER_HEADERS[answer.split ? 'split' : 'public'])
        reply.header(name, value);
      reply.type(JSON_TYPE);
      const sent = h5ConfigAnswer(answer);
      // The same for everybody and asked for as the H5 asks (`?adChannelCode=<code>`, or nothing): given
      // again in front of Fastify while the channel's cached object is current (ADR 042). Any other
      // spelling of the query (another key, an encoding) keeps coming here.
      if (!answer.split && req.url === (code ? `${H5_CONFIG_URL}?adChannelCode=${code}` : H5_CONFIG_URL)) {
        app.frontAnswers.offer(req.url, frontAnswerOf(code, answer.channel, sent));
      }
      const accept = req.headers['accept-encoding'];
      const encoding = accept === undefined ? null : preferredEncoding(accept);
      if (encoding) return reply.header('content-encoding', encoding).send(encoded(sent, encoding) as never);
      // A JSON string is sent as it is (Fastify serialises only objects); the type provider knows only objects.
      return reply.send(sent.json as never);
    },
  );

  app.get(
    CLICK_URL,
    {
      schema: {
        tags,
        summary: 'Count a channel click (once per fingerprint per channel per day; flagged without one)',
        querystring: reportClickQuery,
        refusals: [404, 429],
        response: { 200: envelope(reportClickData) },
      },
    },
    async (req, reply) => {
      const outcome = await reportClick(req.query, req.headers.platform_param, req.ip);
      // One of three answers, serialised once (the ad-burst hot path; the schema above documents them).
      reply.type(JSON_TYPE);
      return reply.send(clickBody(outcome) as never);
    },
  );

  // The ad burst's clicks are taken in front of Fastify (lib/front-answers.ts, ADR 046): the same query schema,
  // the same call and answers as the route above, failures as the error handler answers them. A query the
  // schema refuses is left to the route (its 400 names the field).
  app.frontAnswers.route(CLICK_URL, {
    route: CLICK_URL,
    take(query, req, request) {
      const parsed = reportClickQuery.safeParse(wellFormed(parseQuery(query)));
      if (!parsed.success) return undefined;
      return reportClick(parsed.data, req.headers.platform_param, request.ip() as string).then(
        (outcome) => CLICK_REPLIES.get(clickBody(outcome)) as FrontReply,
        (err: unknown) => {
          const failure = errorAnswer(err, request.id);
          if (failure.log)
            app.log[failure.log.level]({ reqId: request.id, ...failure.log.obj }, failure.log.msg);
          return jsonReply(failure.status, JSON.stringify(failure.body));
        },
      );
    },
  });
};

export default channelRoutes;
