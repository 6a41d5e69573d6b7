/**
 * Credit-information completeness (spec §4 "Credit info wizard steps"). The wizard itself belongs to the
 * credit process; the post-login decision only needs to know whether the info is complete (DONE).
 */
import { isPresent } from '@lm/shared/values';

export type CreditInfoStep = 'IDENTITY' | 'INFORMATION' | 'CONTACT' | 'BASE' | 'DONE';

export interface CreditContact {
  relationship?: string | number | null;
  name?: string | null;
  phone?: string | null;
}

/** Base/credit info of spec §3 (GET /api/app/userInfo/baseDetail). */
export interface CreditInfo {
  education?: number | null;
  maritalStatus?: number | null;
  annualIncome?: number | null;
  occupation?: number | null;
  loanPurpose?: number | null;
  residentialRegion?: string | null;
  residentialAddress?: string | null;
  companyName?: string | null;
  companyRegion?: string | null;
  companyAddress?: string | null;
  /** Face status: 0 not started, 1 failed, 2 passed. */
  auditStatus?: number | null;
  contacts?: CreditContact[] | null;
}

const INFORMATION_FIELDS = [
  'education',
  'maritalStatus',
  'annualIncome',
  'occupation',
  'loanPurpose',
] as const;
const BASE_FIELDS = [
  'residentialRegion',
  'residentialAddress',
  'companyName',
  'companyRegion',
  'companyAddress',
] as const;

/** Missing contacts become two blank entries (spec §4). */
export function normalizeContacts(contacts: CreditContact[] | null | undefined): CreditContact[] {
  const list = Array.isArray(contacts) ? contacts.slice(0, 2) : [];
  while (list.length < 2) list.push({ relationship: '', name: '', phone: '' });
  return list;
}

/** The first wizard step with something missing, or DONE. No info at all counts as INFORMATION. */
export function creditInfoStep(info: CreditInfo | null | undefined): CreditInfoStep {
  if (!info) return 'INFORMATION';
  if (INFORMATION_FIELDS.some((f) => !isPresent(info[f]))) return 'INFORMATION';
  if (
    normalizeContacts(info.contacts).some(
      (c) => !isPresent(c.name) || !isPresent(c.phone) || !isPresent(c.relationship),
    )
  ) {
    return 'CONTACT';
  }
  if (BASE_FIELDS.some((f) => !isPresent(info[f]))) return 'BASE';
  return 'DONE';
}
