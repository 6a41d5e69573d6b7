import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyPluginAsync, InjectOptions, LightMyRequestResponse } from 'fastify';
import fp from 'fastify-plugin';
import { LOCAL_STORAGE_PATH } from '../src/providers/storage/index.ts';

/**
 * The API tests check every answer against the OpenAPI document (issue 15 §4), so the document cannot
 * drift from the code: `createTestApp` (helpers.ts) registers `routeMarker` and wraps `app.inject` with
 * `checkAgainstDocument`. For every answer under /api (the document itself excepted):
 * - the operation (method + route pattern of the route that answered) is in the document;
 * - the status is documented (exactly, or as 5XX);
 * - a JSON body matches the schema documented for that status (ajv, formats included).
 * Unknown paths must answer the 404 envelope. Files (an attachment, the store under /api/storage) and
 * non-JSON bodies are checked for their status only. A mismatch throws from `inject`, naming the method,
 * route, status, the ajv errors and the start of the body.
 */

const ROUTE = Symbol('lm.answeredBy');
type Marked = { [ROUTE]?: string | null };

/** Test-only plugin: marks each reply with the pattern of the route that answered (null: not found). */
export const routeMarker: FastifyPluginAsync = fp(
  async (app) => {
    app.addHook('onSend', async (req, reply, payload) => {
      (reply.raw as unknown as Marked)[ROUTE] = req.routeOptions.url ?? null;
      return payload;
    });
  },
  { name: 'test-route-marker' },
);

type Json = Record<string, unknown>;
interface Document {
  paths: Record<string, Record<string, { responses?: Record<string, Json> }>>;
  components?: { schemas?: Record<string, Json>; responses?: Record<string, Json> };
}

const NOT_CONVERTED = new Set(['enum', 'default', 'example', 'examples', 'const']);

/** An OpenAPI 3.0 schema as JSON Schema draft-07 (nullable, boolean exclusive bounds, component refs). */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.replace('#/components/schemas/', '#/definitions/');
    } else out[key] = NOT_CONVERTED.has(key) ? value : toJsonSchema(value);
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag]) out[flag] = out[bound];
    else delete out[flag];
    if (out[flag] !== undefined) delete out[bound];
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    } else {
      return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

/** Everything needed to check the answers of one app, built from its document on first use. */
class Contract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly definitions: Json;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly doc: Document) {
    addFormats(this.ajv);
    this.definitions = toJsonSchema(doc.components?.schemas ?? {}) as Json;
  }

  private resolve(response: Json): Json {
    const ref = response.$ref;
    if (typeof ref !== 'string') return response;
    const name = ref.replace('#/components/responses/', '');
    const found = this.doc.components?.responses?.[name];
    if (!found) throw new Error(`the document refers to a missing response ${ref}`);
    return found;
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    let fn = this.validators.get(key);
    if (!fn) {
      fn = this.ajv.compile({ ...(toJsonSchema(schema) as Json), definitions: this.definitions });
      this.validators.set(key, fn);
    }
    return fn;
  }

  /** Problems of one answer (empty when it matches the document). */
  problems(method: string, path: string, route: string | null | undefined, res: LightMyRequestResponse) {
    const status = res.statusCode;
    const isJson = /\bjson\b/i.test(String(res.headers['content-type'] ?? ''));
    const json = (): unknown => {
      try {
        // A compressed answer (h5Config to a phone that accepts brotli or gzip) is checked as decoded.
        const encoding = res.headers['content-encoding'];
        const text =
          encoding === 'br'
            ? brotliDecompressSync(res.rawPayload).toString('utf8')
            : encoding === 'gzip'
              ? gunzipSync(res.rawPayload).toString('utf8')
              : res.body;
        return JSON.parse(text);
      } catch {
        return Symbol('not JSON'); // matches no schema
      }
    };
    const errors = (fn: ValidateFunction) =>
      this.ajv.errorsText(fn.errors as ErrorObject[], { dataVar: 'body', separator: '; ' });

    if (!route) {
      // Nothing answered but the not-found handler (or a malformed path): the 404 / 400 envelope, or 405
      // with the methods the path has in Allow (plugins/app/errors.ts refuseMethod).
      if (status === 405 && !res.headers.allow) return ['405 without an Allow header'];
      if (status !== 404 && status !== 400 && status !== 405)
        return [`an unknown path answered ${status}, not 404`];
      const fn = this.validator('ErrorEnvelope', { $ref: '#/components/schemas/ErrorEnvelope' });
      return isJson && fn(json()) ? [] : [`an unknown path did not answer the envelope: ${errors(fn)}`];
    }
    const docPath = route.replace(/:(\w+)(\([^)]*\))?/g, '{$1}').replace(/\*/g, '{*}');
    const op = this.doc.paths[docPath]?.[method === 'HEAD' ? 'get' : method.toLowerCase()];
    if (!op) return [`${method} ${docPath} is not in the document`];
    const responses = op.responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k]);
    if (!key)
      return [`status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    if (method === 'HEAD' || status === 204 || status === 304 || res.rawPayload.length === 0) return [];

    const isFile =
      /attachment/i.test(String(res.headers['content-disposition'] ?? '')) ||
      path.startsWith(`${LOCAL_STORAGE_PATH}/`);
    if (!isJson || (isFile && status < 300)) return [];
    const schema = (this.resolve(responses[key]!).content as Json | undefined)?.['application/json'] as
      | Json
      | undefined;
    if (!schema?.schema) return [`status ${status} answered JSON but the document gives it no JSON schema`];
    const fn = this.validator(`${method} ${docPath} ${key}`, schema.schema);
    return fn(json()) ? [] : [`the body does not match the ${key} schema: ${errors(fn)}`];
  }
}

const contracts = new WeakMap<FastifyInstance, Contract>();

/** Throws when the answer to `opts` does not match the app's OpenAPI document. */
export function checkAgainstDocument(
  app: FastifyInstance,
  opts: InjectOptions | string,
  res: LightMyRequestResponse,
): void {
  const method = (typeof opts === 'string' ? 'GET' : (opts.method ?? 'GET')).toUpperCase();
  const target = typeof opts === 'string' ? opts : (opts.url ?? opts.path ?? '/');
  const path = (typeof target === 'string' ? target : (target.pathname ?? '/')).split('?')[0] ?? '';
  if (!/^\/api(\/|$)/.test(path) || /^\/api\/docs(\/|$)/.test(path)) return;
  let contract = contracts.get(app);
  if (!contract) {
    contract = new Contract(app.swagger() as unknown as Document);
    contracts.set(app, contract);
  }
  const route = (res.raw.res as unknown as Marked)[ROUTE];
  const problems = contract.problems(method, path, route, res);
  if (problems.length === 0) return;
  const where = route ? route : `${path} (no route)`;
  throw new Error(
    `answer does not match the API document — ${method} ${where} → ${res.statusCode}: ${problems.join('; ')}\n` +
      `body: ${res.body.slice(0, 500)}`,
  );
}

/** Makes `app.inject(opts)` (the promise form) check every answer against the document. */
export function checkEveryAnswer(app: FastifyInstance): void {
  const inject = app.inject.bind(app) as (opts?: InjectOptions | string, cb?: unknown) => unknown;
  const checked = (opts?: InjectOptions | string, cb?: unknown) => {
    if (opts === undefined || cb !== undefined) return inject(opts, cb);
    return (inject(opts) as Promise<LightMyRequestResponse>).then((res) => {
      checkAgainstDocument(app, opts, res);
      return res;
    });
  };
  app.inject = checked as FastifyInstance['inject'];
}
