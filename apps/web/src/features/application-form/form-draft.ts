import type { ApplicationDraft } from '@lm/shared/schemas/application';

/**
 * The application form's draft while the person types (issue 16.3): which answers go to the server's
 * autosave (POST /api/user/info/tempSave), what the device keeps, how a stored draft, the server's
 * and the device's, become the form's values again, and at which step a wizard resumes.
 */

import { checkIdCard } from '@lm/shared/validators/id-card';
import { REAL_NAME_PATTERN } from '@lm/shared/validators/real-name';
import type { CityValue } from '@/components/city-picker/city-picker';
import type { FormValues } from './components/application-form';
import { SELECT_FIELDS } from './cover-prefill';

/** Name and ID number: kept on the device for this tab only (sessionStorage), never in localStorage. */
export type WhoValues = Pick<FormValues, 'realName' | 'identity'>;
/** Everything else the form asks. */
export type AnswerValues = Omit<FormValues, 'realName' | 'identity'>;

/** The device's copy: the answers (localStorage) and the name and ID number (sessionStorage). */
export interface LocalDraft {
  answers: AnswerValues;
  who: WhoValues;
}

export function splitValues(values: FormValues): LocalDraft {
  const { realName, identity, ...answers } = values;
  const who: WhoValues = {};
  if (realName !== undefined) who.realName = realName;
  if (identity !== undefined) who.identity = identity;
  return { answers, who };
}

const isCode = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

function isCity(value: unknown): value is CityValue {
  if (!value || typeof value !== 'object') return false;
  const city = value as Partial<CityValue>;
  return typeof city.city === 'string' && typeof city.cityCode === 'string' && /^\d{6}$/.test(city.cityCode);
}

/** A stored copy read back: only what the form can show (anything else, e.g. an old format, is dropped). */
export function readLocalDraft(answersJson: unknown, whoJson: unknown): FormValues {
  const out: FormValues = {};
  const answers = (answersJson && typeof answersJson === 'object' ? answersJson : {}) as Record<
    string,
    unknown
  >;
  for (const name of SELECT_FIELDS) {
    const value = answers[name];
    if (Array.isArray(value) && value.every(isCode)) out[name] = value;
  }
  if (isCity(answers.workCity)) out.workCity = answers.workCity;
  const who = (whoJson && typeof whoJson === 'object' ? whoJson : {}) as Record<string, unknown>;
  if (typeof who.realName === 'string') out.realName = who.realName;
  if (typeof who.identity === 'string') out.identity = who.identity;
  return out;
}

/**
 * The autosave's body: the answers given so far, and the name and ID number only once they are
 * valid (a half-typed number is not a draft field the server accepts) and only when the identity is
 * not the verified one (the server uses that, issue 16.1). null when there is nothing to save.
 */
export function toTempSavePatch(
  values: FormValues,
  adChannelCode: string,
  identityVerified: boolean,
): ApplicationDraft | null {
  const patch: ApplicationDraft = {};
  for (const name of SELECT_FIELDS) {
    const code = values[name]?.[0];
    if (isCode(code)) patch[name] = code;
  }
  if (isCity(values.workCity)) {
    patch.workCity = values.workCity.city;
    patch.workCityCode = values.workCity.cityCode;
  }
  if (!identityVerified) {
    const name = values.realName?.trim();
    if (name && REAL_NAME_PATTERN.test(name)) patch.realName = name;
    const id = values.identity?.trim().toUpperCase();
    if (id && checkIdCard(id) === null) patch.identity = id;
  }
  if (Object.keys(patch).length === 0) return null;
  return adChannelCode ? { adChannelCode, ...patch } : patch;
}

/**
 * The form's values from the server's draft and the device's copy: the device's wins for every field
 * it has (it is what was typed last on this device, a cleared answer included); the server's fills
 * the rest (another device, or the device's copy lost).
 */
export function mergeDrafts(server: FormValues, local: FormValues): FormValues {
  return { ...server, ...local };
}

/** Whether a field holds an answer. */
export function isAnswered(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'string') return value.trim() !== '';
  return value !== undefined && value !== null;
}

/**
 * The step a wizard resumes at: the first whose questions are not all answered (the last when all
 * are). `steps` lists each step's fields; fields shown read-only (a verified identity) are left out.
 */
export function impliedStep(values: FormValues, steps: readonly (readonly string[])[]): number {
  const record = values as Record<string, unknown>;
  for (let i = 0; i < steps.length; i++) {
    if (!steps[i]!.every((field) => isAnswered(record[field]))) return i;
  }
  return Math.max(0, steps.length - 1);
}
