/**
 * The verified identity (issue 16.1): once a person passed the credit process's face verification, the
 * name and national ID number it was checked with are theirs. Every call that carries a name or an ID
 * number (form autosave and save, real-name check, face check) and every match and consent must carry
 * that identity, never another person's.
 */

export interface Identity {
  realName: string;
  identity: string;
}

export type IdentityField = keyof Identity;

/** The one message of every refusal of another identity (VALIDATION_FAILED, 400). */
export const IDENTITY_MISMATCH_MSG = '实名信息须与已认证的身份一致';

/** Shown with the verified (read-only) name and ID number on the application form. */
export const IDENTITY_VERIFIED_NOTE = '已实名认证，姓名和身份证号不可修改';

/** A name as compared: surrounding whitespace does not count. */
export function normalizeName(name: string): string {
  return name.trim();
}

/** An ID number as compared: whitespace does not count, nor the case of the final check character X. */
export function normalizeIdNumber(idNumber: string): string {
  return idNumber.trim().toUpperCase();
}

/**
 * The fields of `submitted` that differ from the `verified` identity (empty: no conflict). A field
 * that is absent (undefined, null or blank) is no conflict: the verified value is used in its place.
 * Without a verified identity nothing conflicts.
 */
export function identityConflict(
  verified: Identity | null | undefined,
  submitted: { realName?: string | null; identity?: string | null },
): IdentityField[] {
  if (!verified) return [];
  const fields: IdentityField[] = [];
  const name = submitted.realName ? normalizeName(submitted.realName) : '';
  if (name && name !== normalizeName(verified.realName)) fields.push('realName');
  const id = submitted.identity ? normalizeIdNumber(submitted.identity) : '';
  if (id && id !== normalizeIdNumber(verified.identity)) fields.push('identity');
  return fields;
}

/**
 * `submitted` carrying the verified identity: absent fields filled in with the verified values
 * (and present ones, which must agree, in the verified spelling). Unchanged without a verified identity.
 */
export function withVerifiedIdentity<T extends object>(
  verified: Identity | null | undefined,
  submitted: T,
): T {
  if (!verified) return submitted;
  return { ...submitted, realName: verified.realName, identity: verified.identity };
}
