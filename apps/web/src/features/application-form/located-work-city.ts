/**
 * Issue 16.11: the application form's work city starts as the city the visitor is in, by the IP
 * (GET /api/third/baiduMap/excludeCity without coordinates: the server's location provider, no
 * permission prompt), shown with a note and changeable with the picker like any answer. Nothing is
 * filled when the location is unknown or the person has already chosen a city.
 */
import { startTransition, useEffect, useState } from 'react';
import { type CityValue, cityValueOf } from '@/components/city-picker/city-picker';

export const LOCATED_CITY_NOTE = '已按您当前网络所在城市预填，如不是您的工作城市请点击修改';

interface CityForm {
  getFieldValue(name: 'workCity'): unknown;
  setFieldsValue(values: { workCity: CityValue }): void;
}

/** The city pre-filled from the visitor's location (null when none was). */
export function useLocatedWorkCity(
  form: CityForm,
  enabled: boolean,
  locateCityCode: () => Promise<string | null | undefined>,
): CityValue | null {
  const [located, setLocated] = useState<CityValue | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void (async () => {
      try {
        const city = await cityValueOf(await locateCityCode());
        if (!live || !city || form.getFieldValue('workCity')) return;
        // A transition: the form's fields re-render in slices (issue 17.4).
        startTransition(() => {
          form.setFieldsValue({ workCity: city });
          setLocated(city);
        });
      } catch {
        // Location unknown: the person picks the city.
      }
    })();
    return () => {
      live = false;
    };
  }, [form, enabled, locateCityCode]);
  return located;
}
