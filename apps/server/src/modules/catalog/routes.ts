import {
  agentData,
  agentQuery,
  columnRecommendQuery,
  jumpSuccessBody,
  productApplyBody,
  productApplyData,
  productColumnsData,
  productDetailData,
  productDetailQuery,
  productEventData,
  productExposureQuery,
  productItemData,
  productListData,
  productListQuery,
  productPageData,
  randomRecommendQuery,
  todayApplyProductData,
  topRecommendQuery,
} from '@lm/shared/schemas/product';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { clientMeta, requireUser } from '../../plugins/app/auth.ts';
import type { AuthUser } from '../auth/service.ts';
import { agentFor } from './rules.ts';

const tags = ['products'];
const security = [{ accessToken: [] }];

/** The person behind an accessToken header, if any; a public call never fails because of its token. */
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

/**
 * Spec §7 "Products": the catalogue (public), apply / today's applies / jump flag (login), exposure
 * reports (anonymous or logged in) and the customer-service agent. See docs/products-api.md.
 */
const catalogRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { catalog } = app.services;

  app.get(
    '/api/product/topRecommend',
    {
      schema: {
        tags,
        summary: 'Top recommendations: the first products of the catalogue (priority, price, id)',
        querystring: topRecommendQuery,
        response: { 200: envelope(productListData) },
      },
    },
    async (req) => ok(await catalog.top(req.query.size)),
  );

  app.get(
    '/api/product/productList',
    {
      schema: {
        tags,
        summary: 'One page of published products, optionally filtered by amount (yuan), term and type',
        querystring: productListQuery,
        response: { 200: envelope(productPageData) },
      },
    },
    async (req) => ok(await catalog.page(req.query)),
  );

  app.get(
    '/api/product/detail',
    {
      schema: {
        tags,
        summary: 'A published product with its lender licence, shared fields and active hours',
        querystring: productDetailQuery,
        refusals: [404],
        response: { 200: envelope(productDetailData) },
      },
    },
    async (req) => ok(await catalog.detail(req.query.productId)),
  );

  app.get(
    '/api/product/randomRecommend',
    {
      schema: {
        tags,
        summary: 'A random published product (null when none)',
        querystring: randomRecommendQuery,
        response: { 200: envelope(productItemData.nullable()) },
      },
    },
    async (req) => ok(await catalog.random(req.query.excludeProductId)),
  );

  app.get(
    '/api/product/columnRecommendProductList',
    {
      schema: {
        tags,
        summary: 'Recommended products by column: key-account institutions, then regional ones',
        querystring: columnRecommendQuery,
        response: { 200: envelope(productColumnsData) },
      },
    },
    async (req) => ok(await catalog.columns(req.query.size)),
  );

  app.get(
    '/api/product/h5product/union',
    {
      schema: {
        tags,
        summary: "Published H5 products (link types 1 and 4) whose page is on the partner's allowed hosts",
        response: { 200: envelope(productListData) },
      },
    },
    async () => ok(await catalog.union()),
  );

  app.get(
    '/api/product/listTodayApplyProduct',
    {
      onRequest: requireUser,
      schema: {
        tags,
        security,
        summary: 'Products the person applied to or consented to today (Shanghai day), most recent first',
        response: { 200: envelope(todayApplyProductData) },
      },
    },
    async (req) => ok(await catalog.todayApplied(req.user!.id)),
  );

  app.post(
    '/api/product/apply',
    {
      // Before body validation: an anonymous caller learns nothing about the products.
      onRequest: requireUser,
      schema: {
        tags,
        security,
        summary:
          'Apply to a product: its partner page (host checked) or null (form flow); records the apply ' +
          'once per product and placement a day',
        body: productApplyBody,
        refusals: [403, 404],
        response: { 200: envelope(productApplyData) },
      },
    },
    async (req) => ok(await catalog.apply(req.user!.id, req.body)),
  );

  app.post(
    '/api/product/apiH5JumpUrlSuccessFlag',
    {
      onRequest: requireUser,
      schema: {
        tags,
        security,
        summary: 'The partner page opened: recorded once per product a day',
        body: jumpSuccessBody,
        refusals: [404],
        response: { 200: envelope(productEventData) },
      },
    },
    async (req) => ok(await catalog.jumpSuccess(req.user!.id, req.body)),
  );

  app.get(
    '/api/reportProductExposure',
    {
      schema: {
        tags: ['reporting', ...tags],
        summary:
          'A product was shown: once per person, product and placement a day (anonymous: every report, ' +
          'capped per IP)',
        querystring: productExposureQuery,
        refusals: [404, 429],
        response: { 200: envelope(productEventData) },
      },
    },
    async (req) => {
      const user = await optionalUser(req);
      return ok(await catalog.exposure(user?.id ?? null, req.query, clientMeta(req).ip));
    },
  );

  app.get(
    '/api/agent/get',
    {
      schema: {
        tags,
        summary:
          "The customer-service agent of a channel (the query's, else the logged-in person's, else the " +
          'default): operator, service hours, online now',
        querystring: agentQuery,
        response: { 200: envelope(agentData) },
      },
    },
    async (req) => {
      const code = req.query.adChannelCode ?? (await optionalUser(req))?.adChannelCode ?? undefined;
      const channel = await app.services.channels.h5Config(code);
      return ok(agentFor(channel, new Date()));
    },
  );
};

export default catalogRoutes;
