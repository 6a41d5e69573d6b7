import {
  adChannelQuery,
  channelDetailData,
  channelPlanData,
  exchangeRouteCodeQuery,
  h5ConfigData,
  h5ConfigQuery,
  reportClickData,
  reportClickQuery,
} from '@lm/shared/schemas/channel';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { clientMeta } from '../../plugins/app/auth.ts';
import { H5_CONFIG_TTL_SECONDS } from './cache.ts';

const tags = ['channel'];

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
        response: { 200: envelope(channelPlanData) },
      },
    },
    async (req) => ok(await channels.exchange(req.query.adRouteCode)),
  );

  app.get(
    '/api/adChannel/h5Config',
    {
      schema: {
        tags,
        summary:
          'Everything the H5 needs for a channel (default configuration without or for an unknown code)',
        querystring: h5ConfigQuery,
        response: { 200: envelope(h5ConfigData) },
      },
    },
    async (req, reply) => {
      const config = await channels.h5Config(req.query.adChannelCode);
      reply.header('cache-control', `public, max-age=${H5_CONFIG_TTL_SECONDS}`);
      return ok(config);
    },
  );

  app.get(
    '/api/reportAdChannelClick',
    {
      schema: {
        tags,
        summary: 'Count a channel click (once per fingerprint per channel per day; flagged without one)',
        querystring: reportClickQuery,
        response: { 200: envelope(reportClickData) },
      },
    },
    async (req) => {
      const meta = clientMeta(req);
      return ok(
        await channels.reportClick(
          {
            adChannelCode: req.query.adChannelCode,
            // The query's fingerprint, else the one in the platform_param header.
            fingerprint: req.query.fingerprint ?? meta.fingerprint,
            abTestType: req.query.abTestType,
          },
          meta.ip,
        ),
      );
    },
  );
};

export default channelRoutes;
