import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  AUDIT_SYSTEM_ACTOR,
  REVEAL_FIELD_LABELS,
} from '@lm/shared/audit-labels';

export const ACTION_COLOR: Record<string, string> = {
  reveal: 'orange',
  discard: 'red',
  delete: 'red',
  'rotate-secret': 'purple',
  'reset-password': 'purple',
  'login-lock': 'red',
  create: 'green',
  retry: 'blue',
};

export const actionText = (a: string) => AUDIT_ACTION_LABELS[a] ?? a;
export const entityText = (e: string) => AUDIT_ENTITY_LABELS[e] ?? e;
/** Who made the entry: the staff member's name, 系统 for the server itself (login locks). */
export const staffText = (name: string) => (name === AUDIT_SYSTEM_ACTOR ? '系统' : name);
/** A reveal's field in words. */
export const revealFieldText = (field: string) => REVEAL_FIELD_LABELS[field] ?? field;
