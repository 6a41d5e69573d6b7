/**
 * The application form's work city starts filled when something tells where the person works, shown
 * with a note naming where it came from and changed with the picker like any answer:
 * - after the credit information (issue 44.18): the employer's city the person just entered
 *   (companyRegion), else their residence (residentialRegion) — `workCityFromCreditInfo`;
 * - otherwise the city the visitor is in by the IP (issue 16.11: GET /api/third/baiduMap/excludeCity
 *   without coordinates, the server's location provider, no permission prompt).
 * Nothing is filled when none is known or the form already has a city (the person's draft).
 */
import { startTransition, useEffect, useState } from 'react';
import { type CityValue, cityValueOf } from '@/components/city-picker/city-picker';

export type WorkCitySource = 'company' | 'residence' | 'network';

export interface WorkCitySuggestion {
  /** Six-digit city code (spec §3 region table). */
  cityCode: string;
  source: WorkCitySource;
}

export const WORK_CITY_NOTES: Record<WorkCitySource, string> = {
  company: '已按您填写的单位所在城市预填，如不是您的工作城市请点击修改',
  residence: '已按您填写的居住城市预填，如不是您的工作城市请点击修改',
  network: '已按您当前网络所在城市预填，如不是您的工作城市请点击修改',
};

/** The network note (the default forms' pre-fill). */
export const LOCATED_CITY_NOTE = WORK_CITY_NOTES.network;

const SIX_DIGITS = /^\d{6}$/;

/** The work city the credit information implies: the employer's city, else the residence; null if neither. */
export function workCityFromCreditInfo(
  info: { companyRegion?: string | null; residentialRegion?: string | null } | null | undefined,
): WorkCitySuggestion | null {
  const company = info?.companyRegion?.trim();
  if (company && SIX_DIGITS.test(company)) return { cityCode: company, source: 'company' };
  const residence = info?.residentialRegion?.trim();
  if (residence && SIX_DIGITS.test(residence)) return { cityCode: residence, source: 'residence' };
  return null;
}

interface CityForm {
  getFieldValue(name: 'workCity'): unknown;
  setFieldsValue(values: { workCity: CityValue }): void;
}

export interface SuggestedWorkCity {
  city: CityValue;
  source: WorkCitySource;
}

/** The city pre-filled by `suggest` (null when none was). */
export function useSuggestedWorkCity(
  form: CityForm,
  enabled: boolean,
  suggest: () => Promise<WorkCitySuggestion | null>,
): SuggestedWorkCity | null {
  const [suggested, setSuggested] = useState<SuggestedWorkCity | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void (async () => {
      try {
        const suggestion = await suggest();
        const city = suggestion ? await cityValueOf(suggestion.cityCode) : null;
        if (!live || !suggestion || !city || form.getFieldValue('workCity')) return;
        // A transition: the form's fields re-render in slices (issue 17.4).
        startTransition(() => {
          form.setFieldsValue({ workCity: city });
          setSuggested({ city, source: suggestion.source });
        });
      } catch {
        // Nothing known: the person picks the city.
      }
    })();
    return () => {
      live = false;
    };
  }, [form, enabled, suggest]);
  return suggested;
}
