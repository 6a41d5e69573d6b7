import {
  authBody,
  authData,
  consentedTextQuery,
  INFO_AGREEMENT,
  protocolData,
  protocolParams,
  protocolQuery,
} from '@lm/shared/schemas/matching';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';
import { clientMeta, requireUser } from '../../plugins/app/auth.ts';
import { reportStep } from '../conversions/report-step.ts';

const tags = ['consent'];
const security = [{ accessToken: [] }];

/** Spec §7: PUT /api/user/info/auth, GET protocol/{id}, GET protocol2/getContent. */
const consentRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { consent } = app.services;
  const agreements = app.services.content;

  app.put(
    '/api/user/info/auth',
    {
      onRequest: requireUser,
      schema: {
        tags,
        security,
        summary:
          'Consent lender by lender: each ticked offer gets a consent (agreement version + text hash) and a ' +
          'lead in one transaction; offers not ticked are declined. A run whose form names another ' +
          'identity than the verified one answers 400 实名信息须与已认证的身份一致 and nothing is written',
        body: authBody,
        refusals: [409],
        response: { 200: envelope(authData) },
      },
    },
    async (req) => {
      const meta = clientMeta(req);
      const result = await consent.consent(
        req.user!,
        { productIds: req.body.productIds, matchId: req.body.matchId },
        { ip: meta.ip, userAgent: meta.userAgent, requestId: req.id },
      );
      // 授权 (issue 47.3): the person consented to at least one lender.
      await reportStep(req, { userId: req.user!.id, step: 'consent', reference: req.id });
      return ok({ submitStatus: 10 as const, ...result });
    },
  );

  app.get(
    '/api/user/info/protocol/:id',
    {
      schema: {
        tags,
        summary:
          'Agreement text naming the operator of the channel ?adChannelCode= (ADR 057): with id ' +
          'information-agreement and productId, the text rendered for that product’s lender (exactly what ' +
          'a consent to it given through that channel records, with its hash); otherwise one of the 13 ' +
          'agreement pages in force (GET /api/agreement/:code as one plain text)',
        params: protocolParams,
        querystring: protocolQuery,
        response: { 200: envelope(protocolData) },
      },
    },
    async (req) => {
      if (req.params.id === INFO_AGREEMENT.id && req.query.productId) {
        const rendered = await consent.agreementFor(Number(req.query.productId), req.query.adChannelCode);
        if (!rendered) throw appError('NOT_FOUND', '产品不存在');
        return ok({ ...rendered, consentedAt: null });
      }
      // The 13 agreement pages of spec §2 (information-agreement without a product: its general text).
      const text = await agreements.protocolText(req.params.id, req.query.adChannelCode);
      if (!text) throw appError('NOT_FOUND', '协议不存在');
      return ok({ ...text, consentedAt: null });
    },
  );

  app.get(
    '/api/user/info/protocol2/getContent',
    {
      onRequest: requireUser,
      schema: {
        tags,
        security,
        summary:
          'The stored agreement text the person consented to (by consentId, else latest for productId)',
        querystring: consentedTextQuery,
        refusals: [404],
        response: { 200: envelope(protocolData) },
      },
    },
    async (req) => {
      const row = await consent.consentedText(req.user!.id, {
        consentId: req.query.consentId,
        productId: req.query.productId ? Number(req.query.productId) : undefined,
      });
      if (!row) throw appError('NOT_FOUND', '暂无授权记录');
      return ok({ ...row, consentedAt: row.consentedAt.toISOString() });
    },
  );
};

export default consentRoutes;
