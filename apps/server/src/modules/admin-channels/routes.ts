import {
  channelDetailAdminData,
  channelIdParams,
  channelListData,
  channelListQuery,
  channelPreviewBody,
  channelPreviewData,
  channelStatusBody,
  createChannelBody,
  createRouteCodeBody,
  routeCodeItem,
  routeCodeMissListData,
  routeCodeMissListQuery,
  routeCodeParams,
  updateChannelBody,
  updateRouteCodeBody,
} from '@lm/shared/schemas/admin-channels';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';

const tags = ['admin: channels'];
const security = [{ accessToken: [] }];
const EDITORS = ['admin', 'operator'] as const;

/**
 * Console: advertising channels (issue 7). Reading: admin, operator, viewer; changes and previews:
 * admin and operator (a viewer gets 403 before the body is even read). Every change is audited in its
 * transaction and drops the channel's cached H5 configuration (Redis included), so the H5 sees it on
 * its next h5Config call.
 */
const adminChannelsRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.services.adminChannels;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    // onRequest: the role is checked before validation, so a viewer's edit is 403 whatever it sends.
    r.addHook('onRequest', requireStaff());
    const edit = { onRequest: requireStaff(EDITORS) };

    r.get(
      '/api/admin/channels',
      {
        schema: {
          tags,
          security,
          summary:
            "Channels (paged; q on name/code, status, linkType; sort id|name|updatedAt|adChannelCode) with today's counted clicks",
          querystring: channelListQuery,
          response: { 200: envelope(channelListData) },
        },
      },
      async (req) => ok(await service.list(req.query)),
    );

    r.post(
      '/api/admin/channels/preview',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary:
            'A signed 30-minute token for the H5 to show an unsaved channel draft (GET /?previewToken=…); nothing is stored',
          body: channelPreviewBody,
          response: { 200: envelope(channelPreviewData) },
        },
      },
      async (req) => ok(await service.preview(req.body)),
    );

    // Digits only: `…/channels/preview` is another path (POST), whose other methods answer 405, not this route.
    r.get(
      '/api/admin/channels/:id(^\\d+$)',
      {
        schema: {
          tags,
          security,
          summary: 'One channel with its route codes and A/B skin arms',
          params: channelIdParams,
          response: { 200: envelope(channelDetailAdminData) },
        },
      },
      async (req) => ok(await service.get(req.params.id)),
    );

    r.post(
      '/api/admin/channels',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary: 'Create a channel',
          body: createChannelBody,
          response: { 200: envelope(channelDetailAdminData) },
        },
      },
      async (req) => ok(await service.create(actorOf(req), req.body)),
    );

    r.put(
      '/api/admin/channels/:id(^\\d+$)',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary: 'Replace a channel’s settings (the whole draft; the code cannot change)',
          params: channelIdParams,
          body: updateChannelBody,
          response: { 200: envelope(channelDetailAdminData) },
        },
      },
      async (req) => ok(await service.update(actorOf(req), req.params.id, req.body)),
    );

    r.put(
      '/api/admin/channels/:id/status',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary: 'Enable (1) or disable (0) a channel',
          params: channelIdParams,
          body: channelStatusBody,
          response: { 200: envelope(channelDetailAdminData) },
        },
      },
      async (req) => ok(await service.setStatus(actorOf(req), req.params.id, req.body.channelStatus)),
    );

    r.post(
      '/api/admin/channels/:id/route-codes',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary: 'Add a route code to a channel',
          params: channelIdParams,
          body: createRouteCodeBody,
          response: { 200: envelope(routeCodeItem) },
        },
      },
      async (req) => ok(await service.addRouteCode(actorOf(req), req.params.id, req.body)),
    );

    r.put(
      '/api/admin/channels/:id/route-codes/:routeCode',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary: "Change a route code's plan target URL or status",
          params: routeCodeParams,
          body: updateRouteCodeBody,
          response: { 200: envelope(routeCodeItem) },
        },
      },
      async (req) =>
        ok(await service.updateRouteCode(actorOf(req), req.params.id, req.params.routeCode, req.body)),
    );

    r.get(
      '/api/admin/route-code-misses',
      {
        schema: {
          tags,
          security,
          summary:
            'Route codes that ad links still carry although they do not exchange (unknown, deleted or disabled), ' +
            'with how often and when visitors asked for them (失效访问; no visitor data), the latest first',
          querystring: routeCodeMissListQuery,
          response: { 200: envelope(routeCodeMissListData) },
        },
      },
      async (req) => ok(await service.routeCodeMisses(req.query)),
    );

    r.delete(
      '/api/admin/channels/:id/route-codes/:routeCode',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary: 'Delete a route code',
          params: routeCodeParams,
          response: { 200: envelope(z.object({ deleted: z.literal(true) })) },
        },
      },
      async (req) => ok(await service.deleteRouteCode(actorOf(req), req.params.id, req.params.routeCode)),
    );
  });
};

export default adminChannelsRoutes;
