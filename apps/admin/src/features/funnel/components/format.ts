/** "12.34%", or "—" when there is no rate. */
export function percent(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${(value * 100).toFixed(digits)}%`;
}

/** A signed difference in percentage points: "+5.00pp". */
export function points(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const v = value * 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(digits)}pp`;
}

/** A p-value as people read it: "<0.0001" for tiny ones. */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

/** A plain number with thousands separators. */
export function count(n: number): string {
  return n.toLocaleString('zh-CN');
}
