/**
 * The credit-information wizard's pure logic (spec §4): which form step to show, what to save from a
 * step, and where to go after a save. The step rules themselves are @lm/shared/credit-info's
 * (creditWizardStep), the same function the server answers `step` with.
 */
import {
  BASE_FIELDS,
  CONTACT_RELATIONSHIPS,
  type ContactRelationship,
  type CreditFormStep,
  type CreditInfo,
  type CreditWizardStep,
  INFORMATION_FIELDS,
  normalizeContacts,
  stepOrder,
} from '@lm/shared/credit-info';
import type { CreditInfoPatchBody } from '@lm/shared/schemas/credit-info';
import type { CityValue } from '@/components/city-picker/city-picker';

export const FORM_STEPS: readonly CreditFormStep[] = ['INFORMATION', 'CONTACT', 'BASE'];

/** The picker value of a form field: [code] or [] (antd-mobile Picker). */
type PickerField<V> = (V | null)[];

export interface ContactFormValues {
  relationship?: PickerField<string>;
  name?: string;
  phone?: string;
}

export interface CreditFormValues {
  education?: PickerField<number>;
  maritalStatus?: PickerField<number>;
  annualIncome?: PickerField<number>;
  occupation?: PickerField<number>;
  loanPurpose?: PickerField<number>;
  contacts?: ContactFormValues[];
  residentialRegion?: CityValue | null;
  residentialAddress?: string;
  companyName?: string;
  companyRegion?: CityValue | null;
  companyAddress?: string;
}

/** The form fields of each step (antd-mobile name paths), for validateFields. */
export const STEP_FIELD_NAMES: Record<CreditFormStep, (string | number)[][]> = {
  INFORMATION: INFORMATION_FIELDS.map((f) => [f]),
  CONTACT: [0, 1].flatMap((i) => [
    ['contacts', i, 'relationship'],
    ['contacts', i, 'name'],
    ['contacts', i, 'phone'],
  ]),
  BASE: BASE_FIELDS.map((f) => [f]),
};

/**
 * The form step to open on arrival: the server's step; IDENTITY (face not passed) opens nothing — the
 * page sends the person to face verification; DONE opens the first step to review and change.
 */
export function firstFormStep(server: CreditWizardStep): CreditFormStep | 'IDENTITY' {
  if (server === 'IDENTITY') return 'IDENTITY';
  return server === 'DONE' ? 'INFORMATION' : server;
}

/**
 * Where to go after saving `saved`: the server's step when something at or before `saved` is still
 * missing (or the face status is no longer passed), else the step after `saved` (the person reviews
 * steps filled in earlier), DONE after BASE.
 */
export function stepAfterSave(saved: CreditFormStep, server: CreditWizardStep): CreditWizardStep {
  if (stepOrder(server) <= stepOrder(saved)) return server;
  const next = FORM_STEPS[FORM_STEPS.indexOf(saved) + 1];
  return next && stepOrder(next) < stepOrder(server) ? next : server;
}

export function previousStep(step: CreditFormStep): CreditFormStep | null {
  return FORM_STEPS[FORM_STEPS.indexOf(step) - 1] ?? null;
}

const picked = <V>(v: V | null | undefined): PickerField<V> => (v === null || v === undefined ? [] : [v]);

/** The form's values for the stored record; `cities` holds the region table's entries of its codes. */
export function toFormValues(
  info: CreditInfo,
  cities: { residentialRegion?: CityValue | null; companyRegion?: CityValue | null } = {},
): CreditFormValues {
  return {
    education: picked(info.education),
    maritalStatus: picked(info.maritalStatus),
    annualIncome: picked(info.annualIncome),
    occupation: picked(info.occupation),
    loanPurpose: picked(info.loanPurpose),
    contacts: normalizeContacts(info.contacts).map((c) => ({
      relationship: picked(c.relationship || null),
      name: c.name,
      phone: c.phone,
    })),
    residentialRegion: cities.residentialRegion ?? null,
    residentialAddress: info.residentialAddress ?? '',
    companyName: info.companyName ?? '',
    companyRegion: cities.companyRegion ?? null,
    companyAddress: info.companyAddress ?? '',
  };
}

/** The form's top-level fields of each step (what a reload after saving that step refreshes). */
export const STEP_TOP_FIELDS: Record<CreditFormStep, (keyof CreditFormValues)[]> = {
  INFORMATION: [...INFORMATION_FIELDS],
  CONTACT: ['contacts'],
  BASE: [...BASE_FIELDS],
};

/** The part of `values` that a reload may put on the form ('all', one step's fields, or nothing). */
export function valuesToAdopt(
  values: CreditFormValues,
  scope: 'all' | CreditFormStep | 'none',
): CreditFormValues | null {
  if (scope === 'none') return null;
  if (scope === 'all') return values;
  return Object.fromEntries(STEP_TOP_FIELDS[scope].map((f) => [f, values[f]])) as CreditFormValues;
}

/** Trimmed, whitespace runs (line breaks included) folded into one space. */
const oneLine = (v: string | undefined) => v?.replace(/\s+/g, ' ').trim();
const noSpaces = (v: string | undefined) => v?.replace(/\s/g, '');

/** A picker's choice, or undefined when nothing is picked (the picker gives [] or [null]). */
const choice = <V>(field: PickerField<V> | undefined): V | undefined => field?.[0] ?? undefined;

const isContactRelationship = (v: string | undefined): v is ContactRelationship =>
  (CONTACT_RELATIONSHIPS as readonly (string | undefined)[]).includes(v);

type ContactBody = NonNullable<CreditInfoPatchBody['contacts']>[number];

/** A contact as sent; null when its relationship is not picked (the pair cannot be sent then). */
function contactBody(c: ContactFormValues = {}): ContactBody | null {
  const relationship = choice(c.relationship);
  if (!isContactRelationship(relationship)) return null;
  return { relationship, name: noSpaces(c.name) ?? '', phone: noSpaces(c.phone) ?? '' };
}

/**
 * POST /api/app/userInfo/baseTempSave body for one step: only that step's fields. A field with
 * nothing picked is left out (the server drops empty values the same way); the contacts go as the
 * whole pair or not at all (a contact without a relationship has no valid body). The form's
 * validators refuse both before a save, so these are the typed fallbacks, not a path the page takes.
 */
export function toPatch(step: CreditFormStep, v: CreditFormValues): CreditInfoPatchBody {
  switch (step) {
    case 'INFORMATION':
      return {
        education: choice(v.education),
        maritalStatus: choice(v.maritalStatus),
        annualIncome: choice(v.annualIncome),
        occupation: choice(v.occupation),
        loanPurpose: choice(v.loanPurpose),
      };
    case 'CONTACT': {
      const first = contactBody(v.contacts?.[0]);
      const second = contactBody(v.contacts?.[1]);
      return first && second ? { contacts: [first, second] } : {};
    }
    case 'BASE':
      return {
        residentialRegion: v.residentialRegion?.cityCode,
        residentialAddress: oneLine(v.residentialAddress),
        companyName: oneLine(v.companyName),
        companyRegion: v.companyRegion?.cityCode,
        companyAddress: oneLine(v.companyAddress),
      };
  }
}
