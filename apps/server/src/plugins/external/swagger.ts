import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI document generated from the routes' zod schemas; UI at /api/docs, JSON at /api/docs/json. */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: '借款超市 API',
          description: 'Every answer is the envelope {code, msg, data}; code 200 is success.',
          version: '0.1.0',
        },
        components: {
          securitySchemes: {
            accessToken: { type: 'apiKey', in: 'header', name: 'accessToken' },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'swagger' },
);
