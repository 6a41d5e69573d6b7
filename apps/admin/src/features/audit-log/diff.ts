import { auditFieldLabel, auditValueText } from '@lm/shared/audit-labels';

/**
 * Before/after of an audit entry, field by field, as an auditor reads it: each field by its Chinese
 * label, each value formatted (labels, %, ¥, Shanghai time — packages/shared/src/audit-labels.ts).
 * Values are compared as stored (JSON).
 */
export interface DiffRow {
  key: string;
  /** The field's Chinese label. */
  label: string;
  before: string;
  after: string;
  changed: boolean;
  /** Only in before (removed) or only in after (added). */
  kind: 'changed' | 'same' | 'added' | 'removed';
}

export function diffEntries(
  entity: string,
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
    return {
      key,
      label: auditFieldLabel(entity, key),
      before: auditValueText(entity, key, b),
      after: auditValueText(entity, key, a),
      changed: !same,
      kind,
    };
  });
}

/** One line for a table cell / CSV: "发送状态：发送失败 → 待发送；已发送次数：2 次 → 0 次". */
export function diffSummary(
  entity: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string {
  return diffEntries(entity, before, after)
    .filter((r) => r.changed)
    .map((r) =>
      before === null
        ? `${r.label}：${r.after}`
        : `${r.label}：${r.before || '（无）'} → ${r.after || '（无）'}`,
    )
    .join('；');
}

/** A whole snapshot in one line (the CSV's 修改前 / 修改后): "上架状态：草稿；综合年化利率：18.00%". */
export function snapshotText(entity: string, snapshot: Record<string, unknown> | null): string {
  if (!snapshot) return '';
  return Object.entries(snapshot)
    .map(([key, value]) => `${auditFieldLabel(entity, key)}：${auditValueText(entity, key, value)}`)
    .join('；');
}
