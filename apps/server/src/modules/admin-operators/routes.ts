import {
  createOperatorBody,
  operatorChoicesData,
  operatorDetailData,
  operatorIdParams,
  operatorListData,
  operatorListQuery,
  updateOperatorBody,
} from '@lm/shared/schemas/operators';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';

const tags = ['admin: operators'];
const security = [{ accessToken: [] }];
const EDITORS = ['admin', 'operator'] as const;

/**
 * Console: operators (ADR 057), the licensed companies channels name in their footer, agreements, privacy
 * policy and SMS. Reading: admin, operator, viewer; changes: admin and operator (a viewer gets 403 before
 * the body is read). Every change is audited in its transaction.
 */
const adminOperatorsRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.services.adminOperators;

  await app.register(async (scoped) => {
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.addHook('onRequest', requireStaff());
    const edit = { onRequest: requireStaff(EDITORS) };

    r.get(
      '/api/admin/operators',
      {
        schema: {
          tags,
          security,
          summary:
            'Operators (paged; q on code and names; sort id|code|companyName|updatedAt) with how many channels name each',
          querystring: operatorListQuery,
          response: { 200: envelope(operatorListData) },
        },
      },
      async (req) => ok(await service.list(req.query)),
    );

    r.get(
      '/api/admin/operators/choices',
      {
        schema: {
          tags,
          security,
          summary: "The channel form's choices: every operator's code and names, and the configured operator",
          response: { 200: envelope(operatorChoicesData) },
        },
      },
      async () => ok(await service.choices()),
    );

    r.get(
      '/api/admin/operators/:id',
      {
        schema: {
          tags,
          security,
          summary: 'One operator with the channels that name it',
          params: operatorIdParams,
          response: { 200: envelope(operatorDetailData) },
        },
      },
      async (req) => ok(await service.get(req.params.id)),
    );

    r.post(
      '/api/admin/operators',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary:
            'Create an operator: company name, short name, ICP filing number (京ICP备…号), SMS signature ' +
            '(2–12 characters, without 【】), address, service phone, privacy e-mail',
          body: createOperatorBody,
          response: { 200: envelope(operatorDetailData) },
        },
      },
      async (req) => ok(await service.create(actorOf(req), req.body)),
    );

    r.put(
      '/api/admin/operators/:id',
      {
        ...edit,
        schema: {
          tags,
          security,
          summary:
            "Replace an operator's record (the code cannot change): its channels' footers, agreements, " +
            'privacy policy and SMS name the new record from the next request on',
          params: operatorIdParams,
          body: updateOperatorBody,
          response: { 200: envelope(operatorDetailData) },
        },
      },
      async (req) => ok(await service.update(actorOf(req), req.params.id, req.body)),
    );
  });
};

export default adminOperatorsRoutes;
