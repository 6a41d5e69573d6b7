import { ErrorCode, type ErrorCodeName, errorCatalogue } from '@lm/shared/errors';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { type AuthRequirement, authRequirementOf } from '../plugins/app/auth.ts';

/**
 * The refusals of the OpenAPI document (issue 15 §4). Every operation lists the error answers it can
 * give, each the envelope `{code, msg, data}` of `components/schemas/ErrorEnvelope` with the HTTP status of
 * the error catalogue (`packages/shared/src/errors.ts`; ADR 002: the HTTP status mirrors the catalogue).
 * Most are derived from the route itself (`refusalsOf`); a route declares the others in its schema
 * (`refusals: [404, 429]`). The API tests check every answer against the document (test/api-contract.ts).
 */
export const REFUSAL_STATUSES = [400, 401, 403, 404, 409, 413, 415, 429] as const;
export type RefusalStatus = (typeof REFUSAL_STATUSES)[number];

declare module 'fastify' {
  interface FastifySchema {
    /**
     * Refusals the handler gives beyond those derived from the route (lib/api-document.ts): e.g. 404 for
     * an id in the query, 409 for a state conflict, 429 for a limit the handler enforces.
     */
    refusals?: readonly RefusalStatus[];
  }
}

/** Body-taking methods: bad JSON (400), a body over the limit (413) and other media types (415) apply. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const AUTH_HOOKS = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const;

/** fastify keeps an instance's hooks under this symbol (lib/symbols.js); read once the app is ready. */
function instanceHooks(instance: FastifyInstance): Record<string, unknown[]> {
  const symbol = Object.getOwnPropertySymbols(instance).find((s) => s.description === 'fastify.hooks');
  const hooks = symbol && (instance as unknown as Record<symbol, Record<string, unknown[]>>)[symbol];
  if (!hooks || !Array.isArray(hooks.onRequest)) {
    // A fastify upgrade moved them: the document must not silently lose every 401.
    throw new Error('api-document: cannot read the hooks of a fastify instance (fastify.hooks)');
  }
  return hooks;
}

/** The session a route demands: its own hooks and those of the plugin it is declared in. */
export function authOf(
  route: RouteOptions,
  instance: FastifyInstance | undefined,
): AuthRequirement | undefined {
  const hooks: unknown[] = [];
  const inherited = instance ? instanceHooks(instance) : {};
  for (const name of AUTH_HOOKS) {
    hooks.push(...(inherited[name] ?? []));
    const own = route[name];
    if (own) hooks.push(...(Array.isArray(own) ? own : [own]));
  }
  let found: AuthRequirement | undefined;
  for (const hook of hooks) {
    const requirement = authRequirementOf(hook);
    if (!requirement) continue;
    // A staff requirement is the stricter one (403 besides 401).
    if (!found || requirement.kind === 'staff') found = requirement;
  }
  return found;
}

/** The refusals a route can answer, in ascending order. */
export function refusalsOf(route: RouteOptions, auth: AuthRequirement | undefined): RefusalStatus[] {
  const schema = route.schema ?? {};
  const out = new Set<RefusalStatus>(schema.refusals ?? []);
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (schema.body || schema.querystring || schema.params || schema.headers) out.add(400);
  if (methods.some((m) => BODY_METHODS.has(m))) {
    out.add(400);
    out.add(413);
    out.add(415);
  }
  if (auth) out.add(401);
  if (auth?.kind === 'staff') out.add(403); // a role outside the list, or a disabled account (1007)
  if (/[:*]/.test(route.url)) out.add(404); // a resource by id or key
  for (const status of Object.keys((schema.response as object | undefined) ?? {})) {
    const n = Number(status);
    if ((REFUSAL_STATUSES as readonly number[]).includes(n)) out.add(n as RefusalStatus);
  }
  return [...out].sort((a, b) => a - b);
}

/** The envelope of every refusal. */
export const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  description:
    'The envelope of every refusal: `code` (an HTTP-like code or a business code of the error catalogue), `msg` ' +
    '(Chinese, shown to the person) and `data`.',
  required: ['code', 'msg', 'data'],
  additionalProperties: false,
  properties: {
    code: { type: 'integer' },
    msg: { type: 'string' },
    data: {
      description:
        'null, or details: `fields` [{field, message}] on validation failures (400), `retryAfter` seconds ' +
        '(429), `requestId` (5XX) …',
    },
  },
} as const;

type ResponseKey = RefusalStatus | '5XX';

const RESPONSES: Record<ResponseKey, { name: string; lead: string }> = {
  400: {
    name: 'BadRequest',
    lead:
      'Refused as invalid: a field fails its rule (`data.fields` = [{field, message}]), the JSON is malformed or ' +
      'the body is empty, or the handler refuses the input (msg says why).',
  },
  401: {
    name: 'Unauthorized',
    lead:
      'No valid session or credentials. The client logs the person out on 401, 1005 and 1006 (LOGOUT_CODES); ' +
      '1000 answers a wrong console password, 1103 a bad signature (partner callback, console preview link).',
  },
  403: {
    name: 'Forbidden',
    lead: 'The caller may not do this: the console role does not allow it (403) or the account is disabled (1007).',
  },
  404: { name: 'NotFound', lead: 'Nothing with this id or key, or nothing the caller may see.' },
  409: { name: 'Conflict', lead: 'The current state does not allow it (yet).' },
  413: {
    name: 'PayloadTooLarge',
    lead: 'The body is over BODY_LIMIT_BYTES (uploads: over their own limit).',
  },
  415: {
    name: 'UnsupportedMediaType',
    lead: 'The Content-Type is not accepted: JSON, or multipart/form-data for uploads.',
  },
  429: {
    name: 'TooManyRequests',
    lead:
      'A limit was reached; `data.retryAfter` gives the seconds to wait where the limit knows them. On the send-code ' +
      'routes, 1008 (CHALLENGE_REQUIRED) instead: the phone or the address is under pressure and the request came ' +
      'without a known device (header X-Known-Device); `data.challenge` is an ALTCHA challenge, to be solved and ' +
      'sent back as `altcha` in the same request (ADR 055).',
  },
  '5XX': {
    name: 'ServerError',
    lead:
      'The server failed (500), the SMS gateway failed (502) or the database or Redis is unavailable (503); ' +
      '`data.requestId` names the request in the logs.',
  },
};

/** The catalogue's codes answered with an HTTP status (5XX: any status from 500). */
export function codesFor(key: ResponseKey): number[] {
  const names = Object.keys(errorCatalogue) as ErrorCodeName[];
  return names
    .filter((n) => (key === '5XX' ? errorCatalogue[n].status >= 500 : errorCatalogue[n].status === key))
    .map((n) => ErrorCode[n])
    .sort((a, b) => a - b);
}

function responseObject(key: ResponseKey) {
  const { lead } = RESPONSES[key];
  const names = (Object.keys(errorCatalogue) as ErrorCodeName[]).filter((n) =>
    key === '5XX' ? errorCatalogue[n].status >= 500 : errorCatalogue[n].status === key,
  );
  const list = names.map((n) => `\`${ErrorCode[n]}\` ${errorCatalogue[n].msg}`).join('; ');
  return {
    description: `${lead} Codes: ${list}.`,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/ErrorEnvelope' },
            { type: 'object', properties: { code: { type: 'integer', enum: codesFor(key) } } },
          ],
        },
      },
    },
  };
}

/** components.schemas.ErrorEnvelope and one components.responses entry per refusal. */
export function refusalComponents() {
  const responses: Record<string, ReturnType<typeof responseObject>> = {};
  for (const key of [...REFUSAL_STATUSES, '5XX' as const])
    responses[RESPONSES[key].name] = responseObject(key);
  return { schemas: { ErrorEnvelope: ERROR_ENVELOPE_SCHEMA }, responses };
}

/** `{ '400': {$ref}, …, '5XX': {$ref} }` for an operation's responses. */
export function refusalResponses(statuses: readonly RefusalStatus[]): Record<string, { $ref: string }> {
  const out: Record<string, { $ref: string }> = {};
  for (const status of [...statuses, '5XX' as const]) {
    out[String(status)] = { $ref: `#/components/responses/${RESPONSES[status].name}` };
  }
  return out;
}

type JsonSchema = Record<string, unknown>;

function namesItsFields(schema: JsonSchema): boolean {
  if (schema.properties !== undefined || schema.$ref !== undefined) return true;
  const members = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as JsonSchema[] | undefined;
  return Array.isArray(members) && members.length > 0 && members.every(namesItsFields);
}

/**
 * @fastify/swagger turns each property of a query or header schema into a parameter, and each key of a
 * schema without properties (a record, a preprocessed or transformed object) into a bogus one — `type`
 * with the schema "object". Such a schema becomes one free-form parameter (style form, exploded).
 */
export function asParameters(schema: JsonSchema, name: string): JsonSchema {
  if (namesItsFields(schema)) return schema;
  if (Object.keys(schema).length === 0) return { type: 'object', properties: {} };
  return {
    type: 'object',
    properties: { [name]: { description: 'Free-form: any parameters', ...schema, type: 'object' } },
    style: 'form',
    explode: true,
  };
}

/* —— the query rules and portable patterns (issue 44 item 8) —— */

/** ECMAScript's ASCII classes, spelled out: other regex dialects (Python's, Schemathesis') read `\d` and `\w` as Unicode. */
const ASCII_CLASSES: Record<string, string> = { d: '0-9', w: 'A-Za-z0-9_' };

/** `pattern` with `\d` and `\w` spelled out (the same strings match in ECMAScript; now in every dialect too). */
export function portablePattern(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[++i]!;
      const ascii = ASCII_CLASSES[next];
      out += ascii === undefined ? c + next : inClass ? ascii : `[${ascii}]`;
    } else {
      if (c === '[' && !inClass) inClass = true;
      else if (c === ']' && inClass) inClass = false;
      out += c;
    }
  }
  return out;
}

/** Every `pattern` of a schema (in place), however deep. */
export function portablePatterns(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) portablePatterns(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as JsonSchema;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' && typeof value === 'string') schema.pattern = portablePattern(value);
    else portablePatterns(value);
  }
}

/** A query schema (as zod makes it) that ignores the parameters it does not name: a loose object (`adLinkQuery`). */
export function ignoresUnknownParameters(schema: JsonSchema): boolean {
  const extra = schema.additionalProperties;
  return namesItsFields(schema) && extra !== undefined && extra !== false;
}

/** The parameter that says an operation ignores what it does not name (the calls an ad link reaches). */
export const AD_LINK_PARAMETERS = {
  in: 'query',
  name: 'adLinkParameters',
  required: false,
  style: 'form',
  explode: true,
  description:
    "Any other parameter of the ad link (an ad platform's `clickid`, `callback` …) is accepted and ignored. " +
    'Operations without this parameter refuse one they do not list (400).',
  schema: { type: 'object', additionalProperties: { type: 'string' } },
} as const;

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  allowEmptyValue?: boolean;
  description?: string;
  schema?: JsonSchema;
}

/** The empty value, as a parameter's schema admits it. */
const EMPTY = { type: 'string', maxLength: 0 } as const;

/**
 * An operation's parameters as the query rules have them (plugins/app/query-rules.ts): an optional query
 * parameter may be given empty (`name=`, the same as leaving it out: `allowEmptyValue`, and its schema
 * admits ''); a required one given empty is missing (its schema admits no ''); the calls an ad link reaches
 * end with `AD_LINK_PARAMETERS`.
 */
export function queryRuleParameters(parameters: Parameter[], adLink: boolean): Parameter[] {
  const out = parameters.map((p) => {
    if (p.in !== 'query' || !p.schema || p.schema.type === 'object') return p;
    if (p.required) {
      if (p.schema.type !== 'string' || Number(p.schema.minLength ?? 0) > 0) return p;
      return { ...p, schema: { ...p.schema, minLength: 1 } };
    }
    const note = `\`${p.name}=\` (empty) is the same as leaving it out.`;
    return {
      ...p,
      allowEmptyValue: true,
      description: p.description ? `${p.description} ${note}` : note,
      schema: { anyOf: [p.schema, EMPTY] },
    };
  });
  return adLink
    ? [...out, { ...AD_LINK_PARAMETERS, schema: structuredClone(AD_LINK_PARAMETERS.schema) }]
    : out;
}
