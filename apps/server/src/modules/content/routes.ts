import {
  agreementData,
  agreementParams,
  agreementQuery,
  agreementVersionsData,
  newsDetailData,
  newsListData,
  newsListQuery,
  newsParams,
  operatorChannelQuery,
  operatorSchema,
} from '@lm/shared/schemas/content';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { operatorInfo } from '../operators/rules.ts';

const tags = ['content'];
/** Agreements and the operator change rarely: browsers and CDNs may keep them five minutes. */
const PUBLIC_CACHE = 'public, max-age=300';

/** True when the request's If-None-Match names `etag` (or is `*`). */
function matchesEtag(req: FastifyRequest, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}

function cacheable(reply: FastifyReply, etag?: string) {
  reply.header('cache-control', PUBLIC_CACHE);
  if (etag) reply.header('etag', etag);
}

/**
 * Issue 6 content: the 13 agreement pages (spec §2) from the database and the daily news (/audit-new).
 * The built-in agreement versions are inserted at start in every environment (they are the product's
 * legal texts, not demo data); the demo articles are seeded from app.ts outside production.
 */
const contentRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { content } = app.services;
  await content.ensureAgreements();

  app.get(
    '/api/agreement/:code',
    {
      schema: {
        tags,
        summary:
          'An agreement page (spec §2): the newest version in force (or ?version=), naming the operator of ' +
          'the channel ?adChannelCode= (its operator record; without a channel, for an unknown one or one ' +
          'without a record, the configured operator). Cache-Control max-age=300, ETag = the version and ' +
          'a hash of the operator named.',
        params: agreementParams,
        querystring: agreementQuery,
        response: { 200: envelope(agreementData), 304: z.null().describe('Not modified (If-None-Match)') },
      },
    },
    async (req, reply) => {
      const found = await content.agreement(req.params.code, {
        version: req.query.version,
        adChannelCode: req.query.adChannelCode,
      });
      if (!found) throw appError('NOT_FOUND', req.query.version ? '该协议版本不存在' : '协议不存在');
      const { operatorTag, ...doc } = found;
      const etag = `"${doc.version}.${operatorTag}"`;
      cacheable(reply, etag);
      if (matchesEtag(req, etag)) return reply.code(304).send(null);
      return ok(doc);
    },
  );

  app.get(
    '/api/agreement/:code/versions',
    {
      schema: {
        tags,
        summary: 'Every stored version of an agreement, newest first, with its state (audit)',
        params: agreementParams,
        response: { 200: envelope(agreementVersionsData) },
      },
    },
    async (req, reply) => {
      const versions = await content.agreementVersions(req.params.code);
      if (!versions) throw appError('NOT_FOUND', '协议不存在');
      cacheable(reply);
      return ok(versions);
    },
  );

  app.get(
    '/api/content/operator',
    {
      schema: {
        tags,
        summary:
          'The operator a channel’s pages name (?adChannelCode=; without it, for an unknown channel or one ' +
          'without an operator record, the configured one): name, address, licence, service phone, email',
        querystring: operatorChannelQuery,
        response: { 200: envelope(operatorSchema) },
      },
    },
    async (req, reply) => {
      cacheable(reply);
      return ok(operatorInfo(await content.operatorFor(req.query.adChannelCode)));
    },
  );

  app.get(
    '/api/news',
    {
      schema: {
        tags,
        summary: 'Daily news (/audit-new): published articles, newest first; ?category= filters',
        querystring: newsListQuery,
        response: { 200: envelope(newsListData) },
      },
    },
    async (req) =>
      ok(await content.listNews(req.query.page, req.query.pageSize, { category: req.query.category })),
  );

  app.get(
    '/api/news/:id',
    {
      schema: {
        tags,
        summary: 'One published article (by id or slug) with related articles; counts a view',
        params: newsParams,
        response: { 200: envelope(newsDetailData) },
      },
    },
    async (req) => {
      const article = await content.readArticle(req.params.id);
      if (!article) throw appError('NOT_FOUND', '资讯不存在或已下线');
      return ok(article);
    },
  );
};

export default contentRoutes;
