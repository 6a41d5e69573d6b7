import { channelIdParams } from '@lm/shared/schemas/admin-channels';
import { channelConversionsBody, channelConversionsData } from '@lm/shared/schemas/conversions';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';

const tags = ['admin: conversions'];
const security = [{ accessToken: [] }];

/**
 * Console: a channel's reporting to its ad platform (issue 47.2). Reading: admin, operator, viewer (secrets
 * masked); changes: admin and operator, audited.
 */
const conversionAdminRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.services.conversionSettings;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff());

    r.get(
      '/api/admin/channels/:id/conversions',
      {
        schema: {
          tags,
          security,
          summary:
            'A channel’s conversion reporting: platform, attribution window, event map, credentials (secrets masked) and what would stop it',
          params: channelIdParams,
          response: { 200: envelope(channelConversionsData) },
        },
      },
      async (req) => ok(await service.get(req.params.id)),
    );

    r.put(
      '/api/admin/channels/:id/conversions',
      {
        onRequest: requireStaff(['admin', 'operator']),
        schema: {
          tags,
          security,
          summary:
            'Save a channel’s conversion reporting (credentials absent: kept; "" removes one); switching it on is refused while anything would stop it',
          params: channelIdParams,
          body: channelConversionsBody,
          response: { 200: envelope(channelConversionsData) },
        },
      },
      async (req) => ok(await service.update(actorOf(req), req.params.id, req.body)),
    );
  });
};

export default conversionAdminRoutes;
