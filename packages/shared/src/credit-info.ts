/**
 * Credit information (spec §3 "Base/credit info", §4 "Credit info wizard steps"): the codes, the
 * Chinese field names, the pair rules for the two contacts and the wizard step — one implementation for
 * the H5 (which imports this module at run time: it must stay free of zod) and the server (the zod
 * schemas of schemas/credit-info.ts build on it).
 */

import { isValidPhone } from './validators/phone.ts';
import { REAL_NAME_PATTERN } from './validators/real-name.ts';
import { isPresent } from './values.ts';

/** Face status (spec §3): 0 not started, 1 failed, 2 passed. Kept in credit_profiles.audit_status. */
export const FaceStatus = { NOT_STARTED: 0, FAILED: 1, PASSED: 2 } as const;

/** The wizard steps of spec §4, in order. */
export const CREDIT_WIZARD_STEPS = ['IDENTITY', 'INFORMATION', 'CONTACT', 'BASE', 'DONE'] as const;
export type CreditWizardStep = (typeof CREDIT_WIZARD_STEPS)[number];

/** The steps the credit-information form itself shows (IDENTITY is face verification, DONE is after). */
export type CreditFormStep = 'INFORMATION' | 'CONTACT' | 'BASE';

/** Spec §3 enumerations (numbers), in the order of the spec. */
export const CREDIT_OPTION_CODES = {
  /** 0 postdoctoral, 1 doctor, 2 master, 3 bachelor, 4 high school, 5 secondary school or below. */
  education: [0, 1, 2, 3, 4, 5],
  /** 0 married, 1 single, 2 widowed, 3 divorced, 4 remarried. */
  maritalStatus: [0, 1, 2, 3, 4],
  /** 0 above 200K, 1 100K–200K, 2 50K–100K, 3 below 50K. */
  annualIncome: [0, 1, 2, 3],
  /** Industry 0 general … 11 education. */
  occupation: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  /** 0 travel, 1 electronics, 2 education/training, 3 renovation, 4 healthcare, 5 daily expenses. */
  loanPurpose: [0, 1, 2, 3, 4, 5],
} as const satisfies Record<string, readonly number[]>;

export type CreditOptionField = keyof typeof CREDIT_OPTION_CODES;

/** Contact relation (strings, spec §3): 0 parent, 1 sibling, 2 colleague, 3 friend, 4 other. */
export const CONTACT_RELATIONSHIPS = ['0', '1', '2', '3', '4'] as const;
export type ContactRelationship = (typeof CONTACT_RELATIONSHIPS)[number];

/** Step INFORMATION: any of these missing (spec §4). */
export const INFORMATION_FIELDS = [
  'education',
  'maritalStatus',
  'annualIncome',
  'occupation',
  'loanPurpose',
] as const satisfies readonly CreditOptionField[];

/** Step BASE: any of these missing (spec §4). */
export const BASE_FIELDS = [
  'residentialRegion',
  'residentialAddress',
  'companyName',
  'companyRegion',
  'companyAddress',
] as const;

/** Chinese names of the fields (validation messages name the field). */
export const CREDIT_FIELD_LABELS = {
  education: '最高学历',
  maritalStatus: '婚姻状况',
  annualIncome: '年收入',
  occupation: '所属行业',
  loanPurpose: '借款用途',
  residentialRegion: '居住城市',
  residentialAddress: '居住详细地址',
  companyName: '单位名称',
  companyRegion: '单位所在城市',
  companyAddress: '单位详细地址',
  contacts: '紧急联系人',
  relationship: '与本人关系',
  name: '姓名',
  phone: '手机号',
} as const;

/** Text limits (characters, after trimming). */
export const CREDIT_TEXT_LIMITS = {
  residentialAddress: { min: 4, max: 100 },
  companyName: { min: 2, max: 50 },
  companyAddress: { min: 4, max: 100 },
} as const;

/** A contact's name: the ID-card name rule of the application form (REAL_NAME_PATTERN). */
export const CONTACT_NAME_PATTERN = REAL_NAME_PATTERN;

export interface CreditContact {
  relationship?: string | null;
  name?: string | null;
  phone?: string | null;
}

/** Base/credit info of spec §3 as stored (every field optional until the wizard is done). */
export interface CreditInfoFields {
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
  contacts?: CreditContact[] | null;
}

/** GET /api/app/userInfo/baseDetail: the fields, the face status and the server's wizard step. */
export interface CreditInfo extends CreditInfoFields {
  /** Face status: 0 not started, 1 failed, 2 passed. */
  auditStatus?: number | null;
  step?: CreditWizardStep;
}

/** "联系人1" / "联系人2" (index 0 / 1). */
export const contactLabel = (index: number) => `联系人${index + 1}`;

export const CREDIT_MESSAGES = {
  contactsPair: '请填写两位紧急联系人',
  contactName: (i: number) => `${contactLabel(i)}姓名应为2-20个汉字（可含·）`,
  contactPhone: (i: number) => `${contactLabel(i)}手机号格式不正确`,
  contactRelationship: (i: number) =>
    `${contactLabel(i)}与本人关系选项无效，可选：${CONTACT_RELATIONSHIPS.join('、')}`,
  ownPhone: (i: number) => `${contactLabel(i)}手机号不能是本人手机号`,
  samePhone: (i: number) =>
    `${contactLabel(i)}手机号与${contactLabel(i === 0 ? 1 : 0)}相同，请填写两位不同的联系人`,
} as const;

export interface ContactProblem {
  /** 0 or 1. */
  index: number;
  field: 'relationship' | 'name' | 'phone';
  message: string;
}

/**
 * The rules between the two contacts (each contact's own format is checked by its field rules):
 * not the person's own phone (`isOwnPhone`: only the server and the logged-in H5 know it), not the
 * same phone twice (reported on the second). Phones that are not well formed are left to the format
 * rule.
 */
export function contactPairProblems(
  contacts: readonly (CreditContact | null | undefined)[],
  isOwnPhone?: (phone: string) => boolean,
): ContactProblem[] {
  const problems: ContactProblem[] = [];
  const phones = contacts.map((c) => (typeof c?.phone === 'string' ? c.phone.trim() : ''));
  phones.forEach((phone, index) => {
    if (!isValidPhone(phone)) return;
    if (isOwnPhone?.(phone)) {
      problems.push({ index, field: 'phone', message: CREDIT_MESSAGES.ownPhone(index) });
    } else if (phones.indexOf(phone) < index) {
      problems.push({ index, field: 'phone', message: CREDIT_MESSAGES.samePhone(index) });
    }
  });
  return problems;
}

const BLANK_CONTACT = { relationship: '', name: '', phone: '' } as const;

/**
 * Missing contacts become two blank entries (spec §4): always exactly two, a missing or malformed
 * entry blank, extra entries dropped, missing fields ''.
 */
export function normalizeContacts(
  contacts: readonly (CreditContact | null | undefined)[] | null | undefined,
): { relationship: string; name: string; phone: string }[] {
  const list = Array.isArray(contacts) ? contacts.slice(0, 2) : [];
  return [0, 1].map((i) => {
    const c = list[i];
    if (!c || typeof c !== 'object') return { ...BLANK_CONTACT };
    const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
    return { relationship: str(c.relationship), name: str(c.name), phone: str(c.phone) };
  });
}

/**
 * The first credit-information step with something missing (spec §4), ignoring the face status:
 * INFORMATION (education … loanPurpose), else CONTACT (a contact without name, phone or relationship;
 * missing contacts count as two blank ones), else BASE (residential / company region, address,
 * company name), else DONE. No info at all is INFORMATION. A value is present unless empty, null,
 * undefined or NaN (spec §5): 0 is a value.
 */
export function creditInfoStep(
  info: CreditInfoFields | null | undefined,
): Exclude<CreditWizardStep, 'IDENTITY'> {
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

/**
 * The wizard step (spec §4) including IDENTITY: IDENTITY while the face status is not passed
 * (auditStatus !== 2 — not started, failed, or unknown), because face pass is required before the
 * credit information when credit status is open (spec §5); otherwise `creditInfoStep`. The face status
 * comes first even when every field is filled in: a failed re-verification sends the person back.
 */
export function creditWizardStep(
  info: (CreditInfoFields & { auditStatus?: number | null }) | null | undefined,
): CreditWizardStep {
  if (info?.auditStatus !== FaceStatus.PASSED) return 'IDENTITY';
  return creditInfoStep(info);
}

/** Order of a step (IDENTITY 0 … DONE 4), to compare steps. */
export function stepOrder(step: CreditWizardStep): number {
  return CREDIT_WIZARD_STEPS.indexOf(step);
}
