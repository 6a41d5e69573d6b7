import type { FieldError } from '@lm/shared/errors';
import { ApiError } from './api-client';

/**
 * The fields a refused call names with their reasons: a 400's `data.fields` (`{field, message}`, the
 * envelope of every validation error), for antd Form `setFields`. Empty for any other failure.
 */
export function serverFieldErrors(err: unknown): FieldError[] {
  if (!(err instanceof ApiError) || err.code !== 400) return [];
  const fields = (err.data as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(fields)) return [];
  return fields.filter(
    (f): f is FieldError =>
      typeof f === 'object' && f !== null && typeof f.field === 'string' && typeof f.message === 'string',
  );
}
