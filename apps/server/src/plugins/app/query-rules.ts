import type { FastifySchemaCompiler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { isApiCall } from '../external/security.ts';

/**
 * What an API call's query may hold (issue 44 item 8), the same in the validation and in the API document
 * (lib/api-document.ts says it there):
 * - `name=` — an empty value — is the same as leaving `name` out (spec §5: empty values are removed from
 *   params; the H5's client removes them itself). A required parameter given empty is missing (400).
 * - A parameter the call does not name is refused (400), except on the calls an ad link reaches: their query
 *   schema is a loose object (`z.looseObject`, e.g. `adLinkQuery` in packages/shared), because an ad platform
 *   adds parameters of its own (`clickid`, `callback` …) to the link, and those calls ignore them.
 */

/** A parsed query without its empty values (`a=` and each empty `a=&a=` item); the same object when it has none. */
export function withoutEmptyValues(query: unknown): unknown {
  if (query === null || typeof query !== 'object') return query;
  const entries = Object.entries(query as Record<string, unknown>);
  const empty = (v: unknown) => v === '' || (Array.isArray(v) && v.some((item) => item === ''));
  if (!entries.some(([, v]) => empty(v))) return query;
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    if (v === '') continue;
    if (Array.isArray(v)) {
      const items = v.filter((item) => item !== '');
      if (items.length === 0) continue;
      out[k] = items.length === 1 ? items[0] : items;
    } else out[k] = v;
  }
  return out;
}

/** `compiler` with the empty values of a query removed before it is checked (the other parts as they are). */
export function queryRulesCompiler<S>(compiler: FastifySchemaCompiler<S>): FastifySchemaCompiler<S> {
  return (route) => {
    const validate = compiler(route);
    if (route.httpPart !== 'querystring') return validate;
    return (data: unknown) => validate(withoutEmptyValues(data));
  };
}

/** A query that names nothing: every parameter is refused. */
const NO_QUERY = z.strictObject({});

/** Whether the object schema ignores properties it does not name (`z.looseObject`) or refuses them (`z.strictObject`). */
function catchallOf(schema: z.ZodObject): 'strip' | 'loose' | 'strict' {
  const catchall = schema._zod.def.catchall;
  if (catchall === undefined) return 'strip';
  return catchall._zod.def.type === 'never' ? 'strict' : 'loose';
}

/**
 * The query schema an API route is validated with: its own made strict (a `z.object` silently dropped what
 * it did not name), a loose one as it is (the calls an ad link reaches), none replaced by `NO_QUERY`. A query
 * schema of another kind (a record: a free-form query, documented as such) is kept.
 */
export function strictQuery(querystring: unknown): unknown {
  if (querystring === undefined) return NO_QUERY;
  if (querystring instanceof z.ZodObject && catchallOf(querystring) === 'strip') return querystring.strict();
  return querystring;
}

/** Every API route's query schema made strict as it is declared (`strictQuery`); pages and files keep theirs. */
export default fp(
  async (app) => {
    app.addHook('onRoute', (route: RouteOptions) => {
      const schema = (route.schema ?? {}) as { querystring?: unknown; hide?: boolean };
      if (schema.hide || !isApiCall(route.url)) return;
      route.schema = { ...schema, querystring: strictQuery(schema.querystring) };
    });
  },
  { name: 'query-rules' },
);
