import { idParam } from '@lm/shared/schemas/admin-catalog';
import { reconcileBody, reconcileData } from '@lm/shared/schemas/reconcile';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireStaff } from '../../plugins/app/auth.ts';

/**
 * Console: a lender's reconciliation (issue 47.4) — its CSV of our leads and their statuses compared with its
 * reports; admin and operator (the answer names leads, and the run is audited). Nothing is written to the outcomes.
 */
const reconcileRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.services.reconcile;

  app.post(
    '/api/admin/partners/:id/outcomes/reconcile',
    {
      // Before body validation: an anonymous caller gets 401 and a viewer 403 whatever they send.
      onRequest: requireStaff(['admin', 'operator']),
      schema: {
        tags: ['admin: partners'],
        security: [{ accessToken: [] }],
        summary:
          'Reconcile a lender’s outcomes: its CSV (leadId, status, amount in yuan, occurredAt; header required) against our record; answers the totals and the disagreements (unknown lead, status or amount differs, missing in the file, bad row); writes nothing but an audit entry',
        params: idParam,
        body: reconcileBody,
        response: { 200: envelope(reconcileData) },
      },
    },
    async (req) => ok(await service.run(actorOf(req), req.params.id, req.body)),
  );
};

export default reconcileRoutes;
