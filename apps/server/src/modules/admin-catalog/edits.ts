import { appError } from '../../lib/errors.ts';

/** What the partners' and products' services share: validation errors and audit diffs. */

/**
 * A 400 with `msg`; when it is about one field, `data.fields` names it as every validation error does
 * (`{field, message}`, the envelope of docs/architecture.md), so the console marks that field.
 */
export function validationError(msg: string, field?: string): never {
  throw appError('VALIDATION_FAILED', msg, field ? { fields: [{ field, message: msg }] } : null);
}

export function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}

export function stripUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Audit before/after with only the fields that changed (updatedAt aside). */
export function changedOnly(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (key === 'updatedAt') continue;
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    b[key] = before[key];
    a[key] = after[key];
  }
  return { before: b, after: a };
}
