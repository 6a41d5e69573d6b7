import type { FastifySchemaCompiler, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/** Lone surrogates and NUL: PostgreSQL refuses both in text and jsonb. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Any surrogate or NUL: a string without one is well-formed as it is (the common case, tested first). */
const SUSPECT = /[\uD800-\uDFFF\0]/;
const NUL = String.fromCharCode(0);
const fix = (s: string) => s.replace(LONE_SURROGATE, '\uFFFD').replaceAll(NUL, '\uFFFD');

/** Whether `value` (a parsed body or query) holds a string or key that `wellFormed` would change. */
function needsFix(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return SUSPECT.test(value);
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (needsFix(item, depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (SUSPECT.test(key) || needsFix((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

function fixAll(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return fix(value);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = fixAll(value[i], depth + 1);
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[fix(k)] = fixAll(v, depth + 1);
  return out;
}

/**
 * Replaces lone UTF-16 surrogates and NUL (never meaningful text) in every string of a parsed body or
 * query. A value with none is returned as it is, without a copy (what nearly every request holds).
 */
export function wellFormed(value: unknown): unknown {
  return needsFix(value, 0) ? fixAll(value, 0) : value;
}

/**
 * `compiler` with every validated part (body, query, params, headers) made well-formed before it is
 * checked: the validation's own value becomes the request's, as before, without a hook per request.
 */
export function wellFormedCompiler<S>(compiler: FastifySchemaCompiler<S>): FastifySchemaCompiler<S> {
  return (route) => {
    const validate = compiler(route);
    return (data: unknown) => validate(wellFormed(data));
  };
}

const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

/** For a route without a body or query schema: the part it has no validator for, made well-formed. */
const unvalidatedParts =
  (body: boolean, query: boolean): preValidationHookHandler =>
  (req, _reply, done) => {
    if (body && req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body))
      req.body = wellFormed(req.body);
    if (query && req.query && typeof req.query === 'object')
      req.query = wellFormed(req.query) as typeof req.query;
    done();
  };

/**
 * PostgreSQL refuses a lone surrogate in jsonb (`\ud800`) and NUL in any text, so a body or query holding
 * one would fail deep in a query with a 500. Every body and query is made well-formed before validation
 * (U+FFFD in their place): by the validator compiler (app.ts sets `wellFormedCompiler`) where the route has
 * a schema for it, else by a route-level preValidation hook added here. No hook runs on a route whose body
 * and query are both validated, as every route of the hot path is (issue 17.3).
 */
export default fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown };
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      // GET, HEAD and TRACE carry no body Fastify would parse.
      const takesBody = methods.some((m) => !BODYLESS.has(m.toUpperCase()));
      const body = takesBody && schema.body === undefined;
      const query = schema.querystring === undefined;
      if (!body && !query) return;
      const hook = unvalidatedParts(body, query);
      const own = route.preValidation;
      route.preValidation = own === undefined ? [hook] : Array.isArray(own) ? [hook, ...own] : [hook, own];
    });
  },
  { name: 'well-formed' },
);
