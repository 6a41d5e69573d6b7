/**
 * Before/after of an audit entry, field by field: what an auditor reads. Values are compared as
 * JSON; nested objects are shown whole.
 */
export interface DiffRow {
  key: string;
  before: string;
  after: string;
  changed: boolean;
  /** Only in before (removed) or only in after (added). */
  kind: 'changed' | 'same' | 'added' | 'removed';
}

/** A value as one line of text: strings as they are, null as "—", the rest as JSON. */
export function showValue(v: unknown): string {
  if (v === undefined) return '';
  if (v === null) return '—';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

export function diffEntries(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): DiffRow[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys.map((key) => {
    const inBefore = before !== null && Object.hasOwn(before, key);
    const inAfter = after !== null && Object.hasOwn(after, key);
    const b = inBefore ? before[key] : undefined;
    const a = inAfter ? after[key] : undefined;
    const same = inBefore && inAfter && JSON.stringify(b) === JSON.stringify(a);
    const kind: DiffRow['kind'] =
      inBefore && inAfter
        ? same
          ? 'same'
          : 'changed'
        : inAfter
          ? before === null
            ? 'changed'
            : 'added'
          : 'removed';
    return { key, before: showValue(b), after: showValue(a), changed: !same, kind };
  });
}

/** One line for a table cell / CSV: "status: dead → pending; attempts: 2 → 0". */
export function diffSummary(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string {
  return diffEntries(before, after)
    .filter((r) => r.changed)
    .map((r) =>
      before === null ? `${r.key}: ${r.after}` : `${r.key}: ${r.before || '（无）'} → ${r.after || '（无）'}`,
    )
    .join('; ');
}
