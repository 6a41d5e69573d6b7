import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Env } from '../../config/env.ts';
import {
  asParameters,
  authOf,
  ignoresUnknownParameters,
  portablePatterns,
  queryRuleParameters,
  REFUSAL_STATUSES,
  type RefusalStatus,
  refusalComponents,
  refusalResponses,
  refusalsOf,
} from '../../lib/api-document.ts';

/** Where the API document (Swagger UI, and its JSON at `${API_DOCS_PATH}/json`) is served. */
export const API_DOCS_PATH = '/api/docs';

/** Whether /api/docs serves the document and Swagger UI: API_DOCS, by default on except in production. */
export function apiDocsEnabled(config: Pick<Env, 'API_DOCS' | 'NODE_ENV'>): boolean {
  return (config.API_DOCS ?? (config.NODE_ENV === 'production' ? 'off' : 'on')) === 'on';
}

type Schema = Record<string, unknown>;
type Operation = {
  parameters?: Parameters<typeof queryRuleParameters>[0];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  'x-refusals'?: RefusalStatus[];
  'x-ad-link'?: boolean;
};

/**
 * The OpenAPI document, generated from the routes' zod schemas, with every operation's refusals
 * (lib/api-document.ts). `app.swagger()` builds it in every environment (the API tests check every
 * answer against it); the UI at /api/docs and the JSON at /api/docs/json are served when API_DOCS is on
 * (by default everywhere but production, where it is off: the API surface is not published).
 */
export default fp(
  async (app) => {
    // The plugin instance a route is declared in: its hooks say which session the route needs.
    const declaredIn = new WeakMap<object, FastifyInstance>();
    app.addHook('onRoute', function (this: FastifyInstance, route) {
      declaredIn.set(route, this);
    });

    await app.register(swagger, {
      openapi: {
        info: {
          title: '借款超市 API',
          description:
            'Every answer is the envelope {code, msg, data}; code 200 is success. A refusal carries the HTTP ' +
            'status of its code in the error catalogue (401 for 1005/1006, 409 for 1101 …); every operation ' +
            'lists the refusals it can give. A method a path does not list answers 405 with `Allow`. In a ' +
            'query, `name=` (an empty value) is the same as leaving `name` out; a parameter an operation does ' +
            'not list is refused (400), except by the calls an ad link reaches, which list `adLinkParameters`. ' +
            'Every answer but the cacheable public ones (h5Config, agreements, news) is `Cache-Control: no-store`.',
          version: '0.1.0',
        },
        components: {
          securitySchemes: {
            accessToken: { type: 'apiKey', in: 'header', name: 'accessToken' },
          },
        },
      },
      transform: (input) => {
        const out = jsonSchemaTransform(input);
        if ((out.schema as Schema | undefined)?.hide) return out;
        const route = input.route as RouteOptions;
        const schema: Schema = { ...((out.schema as Schema | undefined) ?? {}) };
        if (schema.querystring) {
          const query = schema.querystring as Schema;
          // The calls an ad link reaches ignore what they do not name (plugins/app/query-rules.ts).
          if (ignoresUnknownParameters(query)) schema['x-ad-link'] = true;
          schema.querystring = asParameters(query, 'query');
        }
        if (schema.headers) schema.headers = asParameters(schema.headers as Schema, 'headers');
        // Refusals are the shared responses (transformObject); a route's own schema for one gives way to them.
        if (schema.response) {
          const response = { ...(schema.response as Schema) };
          for (const status of Object.keys(response)) {
            if (/^5/.test(status) || (REFUSAL_STATUSES as readonly number[]).includes(Number(status))) {
              delete response[status];
            }
          }
          schema.response = Object.keys(response).length ? response : undefined;
        }
        const auth = authOf(route, declaredIn.get(route));
        if (auth && !schema.security) schema.security = [{ accessToken: [] }];
        schema['x-refusals'] = refusalsOf(route, auth);
        return { ...out, schema };
      },
      transformObject: (input) => {
        if (!('openapiObject' in input)) return input.swaggerObject;
        const doc = input.openapiObject as {
          components?: { schemas?: Schema; responses?: Schema };
          paths?: Record<string, Record<string, Operation>>;
        };
        const components = refusalComponents();
        doc.components = {
          ...doc.components,
          schemas: { ...doc.components?.schemas, ...components.schemas },
          responses: { ...doc.components?.responses, ...components.responses },
        };
        for (const item of Object.values(doc.paths ?? {})) {
          for (const op of Object.values(item)) {
            if (!op || typeof op !== 'object' || !op['x-refusals']) continue;
            op.responses = { ...op.responses, ...refusalResponses(op['x-refusals']) };
            delete op['x-refusals'];
            // What the query rules accept (empty values, an ad link's own parameters), in patterns every
            // regex dialect reads alike.
            op.parameters = queryRuleParameters(op.parameters ?? [], op['x-ad-link'] === true);
            if (op.parameters.length === 0) delete op.parameters;
            delete op['x-ad-link'];
            portablePatterns(op.parameters);
            portablePatterns(op.requestBody);
          }
        }
        return input.openapiObject;
      },
    });
    if (apiDocsEnabled(app.config)) {
      await app.register(swaggerUi, { routePrefix: API_DOCS_PATH, staticCSP: true });
    }
  },
  { name: 'swagger' },
);
