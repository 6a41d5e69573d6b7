import { maskPhone } from '@lm/shared/mask';
import { devEncryptMobileQuery, devOutboxQuery } from '@lm/shared/schemas/common';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { partnerEncrypt } from '../../lib/crypto.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { appError } from '../../lib/errors.ts';

const healthData = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'down']),
  redis: z.enum(['ok', 'down', 'not configured']),
  uptimeSeconds: z.number().int(),
});

const systemRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/user/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and dependencies',
        response: { 200: envelope(healthData) },
      },
    },
    async () => ok(await app.services.system.health()),
  );

  // Dev-only helpers: absent when NODE_ENV=production.
  if (app.config.NODE_ENV === 'production') return;

  app.get(
    '/api/dev/sms-outbox',
    {
      schema: {
        tags: ['dev'],
        summary: 'Messages the console SMS provider "sent" to a phone, newest first',
        querystring: devOutboxQuery,
        response: {
          200: envelope(
            z.array(
              z.object({
                mobile: z.string(),
                message: z.string(),
                code: z.string().nullable(),
                createdAt: z.string(),
              }),
            ),
          ),
        },
      },
    },
    async (req) => ok(await app.services.system.outbox(req.query.phone)),
  );

  app.get(
    '/api/dev/encrypt-mobile',
    {
      schema: {
        tags: ['dev'],
        summary: 'Encrypts a phone the way a partner would, to try encrypted-phone links locally',
        querystring: devEncryptMobileQuery,
        refusals: [404],
        response: {
          200: envelope(z.object({ mobile: z.string(), encryptionMobile: z.string(), source: z.string() })),
        },
      },
    },
    async (req) => {
      const key = app.services.keys.partnerKeys.get(req.query.source);
      if (!key) throw appError('NOT_FOUND', `未配置来源 ${req.query.source} 的密钥`);
      return ok({
        mobile: maskPhone(req.query.phone),
        encryptionMobile: partnerEncrypt(key, req.query.phone),
        source: req.query.source,
      });
    },
  );
};

export default systemRoutes;
