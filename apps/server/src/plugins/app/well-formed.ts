import fp from 'fastify-plugin';

/** Lone surrogates and NUL: PostgreSQL refuses both in text and jsonb. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const NUL = String.fromCharCode(0);
const fix = (s: string) => s.replace(LONE_SURROGATE, '\uFFFD').replaceAll(NUL, '\uFFFD');

/** Replaces lone UTF-16 surrogates and NUL (never meaningful text) in every string of a parsed body or query. */
export function wellFormed(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return fix(value);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = wellFormed(value[i], depth + 1);
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    out[fix(k)] = wellFormed(v, depth + 1);
  return out;
}

/**
 * PostgreSQL refuses a lone surrogate in jsonb (`\ud800`) and NUL in any text, so a body or query holding
 * one would fail deep in a query with a 500. Every body and query is made well-formed before validation (U+FFFD in their place).
 */
export default fp(
  async (app) => {
    app.addHook('preValidation', async (req) => {
      if (req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body))
        req.body = wellFormed(req.body);
      if (req.query && typeof req.query === 'object') req.query = wellFormed(req.query) as typeof req.query;
    });
  },
  { name: 'well-formed' },
);
