import {
  idParam,
  partnerCreateBody,
  partnerListData,
  partnerListQuery,
  partnerSchema,
  partnerSecretData,
  partnerUpdateBody,
  productBody,
  productCreateBody,
  productDetailSchema,
  productListData,
  productListQuery,
  productStatusBody,
  ruleTesterBody,
  ruleTesterData,
} from '@lm/shared/schemas/admin-catalog';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { requireStaff } from '../../plugins/app/auth.ts';

const security = [{ accessToken: [] }];
const EDITORS = ['admin', 'operator'] as const;

/**
 * Console: partners (lenders), products and the rule tester (issue 7). Reading: admin, operator,
 * viewer; changes: admin and operator (a viewer gets 403). Every change is audited in its transaction
 * and drops this instance's 2 s catalogue cache (other instances see it within 2 s).
 */
const adminCatalogRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const partners = app.services.adminPartners;
  const products = app.services.adminProducts;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    // Before body validation: an anonymous caller gets 401 and a viewer 403 whatever they send.
    r.addHook('preValidation', requireStaff());
    const edit = {
      preValidation: async (req: FastifyRequest) => {
        if (!(EDITORS as readonly string[]).includes(req.staffMember!.role)) throw appError('FORBIDDEN');
      },
    };

    /* —— partners —— */
    const ptags = ['admin: partners'];
    r.get(
      '/api/admin/partners',
      {
        schema: {
          tags: ptags,
          security,
          summary: 'Partners (paged; q on name/code/licence, status; sort id|legalName|updatedAt|createdAt)',
          querystring: partnerListQuery,
          response: { 200: envelope(partnerListData) },
        },
      },
      async (req) => ok(await partners.listPartners(req.query)),
    );
    r.get(
      '/api/admin/partners/:id',
      {
        schema: {
          tags: ptags,
          security,
          summary: 'One partner (contact phone masked; the signing secret is never shown)',
          params: idParam,
          response: { 200: envelope(partnerSchema) },
        },
      },
      async (req) => ok(await partners.getPartner(req.params.id)),
    );
    r.post(
      '/api/admin/partners',
      {
        ...edit,
        schema: {
          tags: ptags,
          security,
          summary: 'Create a partner; answers its signing secret ONCE',
          body: partnerCreateBody,
          response: { 200: envelope(partnerSecretData) },
        },
      },
      async (req) => ok(await partners.createPartner(actorOf(req), req.body)),
    );
    r.put(
      '/api/admin/partners/:id',
      {
        ...edit,
        schema: {
          tags: ptags,
          security,
          summary: 'Edit a partner (contact phone optional: kept when absent)',
          params: idParam,
          body: partnerUpdateBody,
          response: { 200: envelope(partnerSchema) },
        },
      },
      async (req) => ok(await partners.updatePartner(actorOf(req), req.params.id, req.body)),
    );
    r.post(
      '/api/admin/partners/:id/rotate-secret',
      {
        ...edit,
        schema: {
          tags: ptags,
          security,
          summary:
            'New signing secret, answered ONCE; deliveries sign with it at once, callbacks signed with the previous one are accepted for 24 h',
          params: idParam,
          response: { 200: envelope(partnerSecretData) },
        },
      },
      async (req) => ok(await partners.rotateSecret(actorOf(req), req.params.id)),
    );

    /* —— products —— */
    const tags = ['admin: products'];
    r.get(
      '/api/admin/products',
      {
        schema: {
          tags,
          security,
          summary:
            'Products with today’s live counters (paged; q, partnerId, status, linkType; sort id|priority|aprBps|priceFen|updatedAt)',
          querystring: productListQuery,
          response: { 200: envelope(productListData) },
        },
      },
      async (req) => ok(await products.listProducts(req.query)),
    );
    r.get(
      '/api/admin/products/:id',
      {
        schema: {
          tags,
          security,
          summary: 'One product with its rules, counters and what prevents publishing it',
          params: idParam,
          response: { 200: envelope(productDetailSchema) },
        },
      },
      async (req) => ok(await products.getProduct(req.params.id)),
    );
    r.post(
      '/api/admin/products',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary: 'Create a product (as a draft)',
          body: productCreateBody,
          response: { 200: envelope(productDetailSchema) },
        },
      },
      async (req) => ok(await products.createProduct(actorOf(req), req.body)),
    );
    r.put(
      '/api/admin/products/:id',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary: 'Edit a product (a published product must stay publishable)',
          params: idParam,
          body: productBody,
          response: { 200: envelope(productDetailSchema) },
        },
      },
      async (req) => ok(await products.updateProduct(actorOf(req), req.params.id, req.body)),
    );
    r.put(
      '/api/admin/products/:id/status',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary:
            'draft | published | paused; publishing is refused with the reasons (APR > 24 %, no lender name …)',
          params: idParam,
          body: productStatusBody,
          response: { 200: envelope(productDetailSchema) },
        },
      },
      async (req) => ok(await products.setProductStatus(actorOf(req), req.params.id, req.body.status)),
    );

    /* —— rule tester —— */
    r.post(
      '/api/admin/rule-tester',
      {
        schema: {
          tags: ['admin: rule tester'],
          security,
          summary:
            'Which products a sample profile matches and why each other one does not (live catalogue and counters; stores nothing)',
          body: ruleTesterBody,
          response: { 200: envelope(ruleTesterData) },
        },
      },
      async (req) => ok(await products.ruleTest(req.body)),
    );
  });
};

export default adminCatalogRoutes;
