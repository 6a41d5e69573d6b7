import type { CityValue } from '@/components/city-picker/city-picker';
import type { ShownDraft } from './api/get-shown-draft';

/** The application form's option questions (applicationFormBody of @lm/shared; Selector fields hold [code]). */
export const SELECT_FIELDS = [
  'applyLimit',
  'job',
  'payoffForm',
  'socialSecurity',
  'housingFund',
  'insurance',
  'houseProperty',
  'carProperty',
  'sesameCredit',
  'creditInvestigation',
] as const;

/** Initial values of the application form (its Selector fields hold [code]). */
export type CoverPrefill = Partial<Record<(typeof SELECT_FIELDS)[number], number[]>> & {
  workCity?: CityValue;
};

/**
 * The form's values for an earlier draft (covering it, coverStatus=1): the answers and the work city
 * (`city`: the region table's entry of workCityCode). Name and ID number come back masked from the
 * server and are never pre-filled: the person types them again.
 */
export function prefillFromDraft(draft: ShownDraft, city: CityValue | null): CoverPrefill {
  const out: CoverPrefill = {};
  for (const name of SELECT_FIELDS) {
    const value = draft[name];
    if (typeof value === 'number') out[name] = [value];
  }
  if (city) out.workCity = city;
  return out;
}
