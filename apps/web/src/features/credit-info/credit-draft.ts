/**
 * The credit-information wizard's edits not saved yet (each step is saved by its button only): kept in
 * this tab's sessionStorage as the person types (the contacts' names and phones are personal data, kept
 * like the application form's name and ID number, issue 16.3), so that a reload mid-step does not take
 * them away. Under the form drafts' prefix (lib/form-drafts.ts): a re-login after an expired session
 * finds them, another person's login removes them. Opened over the server's record; forgotten when the
 * record is complete.
 */
import { creditDraftKey, personDraft } from '@/lib/form-drafts';
import type { ContactFormValues, CreditFormValues } from './wizard';

const PICKERS = ['education', 'maritalStatus', 'annualIncome', 'occupation', 'loanPurpose'] as const;
const TEXTS = { residentialAddress: 100, companyName: 50, companyAddress: 100 } as const;
const REGIONS = ['residentialRegion', 'companyRegion'] as const;

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined;

function picker<V extends string | number>(value: unknown, kind: 'string' | 'number'): V[] | undefined {
  return Array.isArray(value) && value.length === 1 && typeof value[0] === kind ? [value[0] as V] : undefined;
}

function region(value: unknown): CreditFormValues['residentialRegion'] | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const fields = ['provinceCode', 'province', 'cityCode', 'city'] as const;
  if (!fields.every((f) => typeof v[f] === 'string' && (v[f] as string).length <= 40)) return undefined;
  return {
    provinceCode: v.provinceCode as string,
    province: v.province as string,
    cityCode: v.cityCode as string,
    city: v.city as string,
  };
}

function contact(value: unknown): ContactFormValues {
  if (!value || typeof value !== 'object') return {};
  const v = value as Record<string, unknown>;
  const out: ContactFormValues = {};
  const relationship = picker<string>(v.relationship, 'string');
  const name = text(v.name, 20);
  const phone = text(v.phone, 11);
  if (relationship) out.relationship = relationship;
  if (name) out.name = name;
  if (phone) out.phone = phone;
  return out;
}

/** The well-formed, non-empty part of the wizard's values. */
export function cleanCreditDraft(raw: unknown): CreditFormValues {
  if (!raw || typeof raw !== 'object') return {};
  const v = raw as Record<string, unknown>;
  const out: CreditFormValues = {};
  for (const f of PICKERS) {
    const chosen = picker<number>(v[f], 'number');
    if (chosen) out[f] = chosen;
  }
  for (const [f, max] of Object.entries(TEXTS) as [keyof typeof TEXTS, number][]) {
    const typed = text(v[f], max);
    if (typed) out[f] = typed;
  }
  for (const f of REGIONS) {
    const city = region(v[f]);
    if (city) out[f] = city;
  }
  if (Array.isArray(v.contacts)) {
    const contacts = v.contacts.slice(0, 2).map(contact);
    if (contacts.some((c) => Object.keys(c).length > 0)) out.contacts = contacts;
  }
  return out;
}

const wizardDraft = personDraft(creditDraftKey, cleanCreditDraft);
export const readCreditDraft = wizardDraft.read;
/** Keeps the wizard's values (removes the draft when they hold nothing). */
export const saveCreditDraft = wizardDraft.save;
export const forgetCreditDraft = wizardDraft.forget;

/** The server's record with the draft's values over it (field by field; a contact's too). */
export function overDraft(server: CreditFormValues, draft: CreditFormValues): CreditFormValues {
  const { contacts: draftContacts, ...rest } = draft;
  const merged: CreditFormValues = { ...server, ...rest };
  if (draftContacts) {
    merged.contacts = [0, 1].map((i) => ({ ...server.contacts?.[i], ...draftContacts[i] }));
  }
  return merged;
}
