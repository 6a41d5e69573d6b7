/** A value is present unless empty, null, undefined or NaN (spec §5). */
export function isPresent(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'number' && Number.isNaN(value)) return false;
  if (typeof value === 'string' && value.trim() === '') return false;
  return true;
}

/** Removes empty values and trims strings, one level deep (spec §5: request bodies and params). */
export function cleanParams<T extends Record<string, unknown>>(input: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(input)) {
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (isPresent(value)) out[key] = value;
  }
  return out as Partial<T>;
}
