/**
 * Page options passed in the query (spec §2: "passes options as query parameters with object values
 * serialised"). Accepts both shapes seen in links: individual parameters (`?revisit=1&rqResult={…}`)
 * and one JSON `options` parameter (`?options={"revisit":1}`); individual parameters win.
 */
export type QueryOptions = Record<string, unknown>;

function parseValue(value: string): unknown {
  const v = value.trim();
  if ((v.startsWith('{') && v.endsWith('}')) || (v.startsWith('[') && v.endsWith(']'))) {
    try {
      return JSON.parse(v);
    } catch {
      return value;
    }
  }
  return value;
}

export function readQueryOptions(search: string | URLSearchParams): QueryOptions {
  const query = typeof search === 'string' ? new URLSearchParams(search) : search;
  const out: QueryOptions = {};
  const packed = query.get('options');
  if (packed) {
    const parsed = parseValue(packed);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) Object.assign(out, parsed);
  }
  for (const [key, value] of query) {
    if (key !== 'options') out[key] = parseValue(value);
  }
  return out;
}

/** '1', 'true', 1 and true are on; anything else is off. */
export function isOn(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

export function numberOption(value: unknown, fallback = 0): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : fallback;
}

export function stringOption(value: unknown): string | null {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number') return String(value);
  return null;
}

/** Builds `path?key=value…`, serialising objects as JSON and dropping empty values. */
export function withQuery(path: string, options: QueryOptions): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || value === null || value === '') continue;
    query.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}
