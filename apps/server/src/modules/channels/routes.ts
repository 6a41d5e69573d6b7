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
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { clientMeta } from '../../plugins/app/auth.ts';
import { H5_CONFIG_TTL_SECONDS } from './cache.ts';
import { previewRow, verifyPreview } from './preview.ts';
import { buildH5Config, withSkin } from './rules.ts';

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
    async (req) => ok(await channels.exchange(req.query.adRouteCode)),
  );

  app.get(
    '/api/adChannel/h5Config',
    {
      schema: {
        tags,
        summary:
          'Everything the H5 needs for a channel (default configuration without or for an unknown code); ' +
          "with the console's previewToken, the unsaved draft's configuration (never cached)",
        querystring: h5ConfigWithPreviewQuery,
        refusals: [401],
        response: { 200: envelope(h5ConfigData) },
      },
    },
    async (req, reply) => {
      if (req.query.previewToken) {
        const { draft, skin } = verifyPreview(app.services.keys.ring, req.query.previewToken);
        reply.header('cache-control', 'no-store');
        return ok(withSkin(buildH5Config(previewRow(draft)), skin));
      }
      const code = req.query.adChannelCode;
      const meta = clientMeta(req);
      // Without a fingerprint (a first visit computes it after this call) the arm follows the IP.
      const visitor = meta.fingerprint ?? `ip:${meta.ip}`;
      const { config, split } = await channels.h5Answer(code, visitor);
      // An A/B answer depends on the visitor: not for shared caches.
      reply.header(
        'cache-control',
        split ? `private, max-age=${H5_CONFIG_TTL_SECONDS}` : `public, max-age=${H5_CONFIG_TTL_SECONDS}`,
      );
      if (split) reply.header('vary', 'platform_param');
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
        refusals: [404, 429],
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
