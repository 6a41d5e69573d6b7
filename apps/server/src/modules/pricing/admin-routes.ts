import { idParam } from '@lm/shared/schemas/admin-catalog';
import { productPriceBody, productPricesData, productPricesQuery } from '@lm/shared/schemas/product-prices';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';

const tags = ['admin: products'];
const security = [{ accessToken: [] }];

/**
 * Console: a product's lead prices (issue 48.1, ADR 073). Reading: admin, operator, viewer (a viewer without
 * any amount); adding a price: admin only, audited. A channel partner is refused.
 */
const pricingAdminRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.services.pricing;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff());

    r.get(
      '/api/admin/products/:id/prices',
      {
        schema: {
          tags,
          security,
          summary:
            'A product’s lead prices (CPL / CPA / CPS), the latest effective day first, with the one in force per model on `at` (default today); a viewer gets no amounts',
          params: idParam,
          querystring: productPricesQuery,
          response: { 200: envelope(productPricesData) },
        },
      },
      async (req) => ok(await service.list(actorOf(req), req.params.id, req.query.at)),
    );

    r.post(
      '/api/admin/products/:id/prices',
      {
        onRequest: requireStaff(['admin']),
        schema: {
          tags,
          security,
          summary:
            'Add a lead price from a Shanghai day on (today or later; a price never changes the past; one per model and day) — admin only',
          params: idParam,
          body: productPriceBody,
          response: { 200: envelope(productPricesData) },
        },
      },
      async (req) => ok(await service.add(actorOf(req), req.params.id, req.body)),
    );
  });
};

export default pricingAdminRoutes;
