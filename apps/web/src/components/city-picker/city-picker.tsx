import type { CityEntry, Region } from '@lm/shared/regions';
import { lazy, Suspense, useState } from 'react';
import { usePrefetchWhenIdle } from '@/hooks/use-prefetch-when-idle';
import { loadChunk } from '@/lib/chunk-load';
import styles from '@/styles/picker-trigger.module.css';

/** A chosen city with its province (six-digit codes and Chinese names of the region table). */
export type CityValue = CityEntry;

interface CityPickerProps {
  value?: CityValue | null;
  onChange?: (value: CityValue) => void;
  placeholder?: string;
  title?: string;
}

// The picker (its popup and animation library) is not part of the form's first load: it is fetched
// once the page is idle (so the first tap opens it at once) or when first opened. The region table
// loads when the picker is first opened.
const loadPicker = () => import('antd-mobile/es/components/cascade-picker');
// Opened offline: it waits for the network (网络连接错误) instead of an error page (docs/decisions/058).
const CascadePicker = lazy(() => loadChunk(loadPicker));

type RegionModule = typeof import('@lm/shared/regions');
let regionModule: Promise<RegionModule> | null = null;
/** The two-level region table of @lm/shared, in its own chunk, loaded once when first needed. */
export function loadRegionTable(): Promise<RegionModule> {
  // A failed load (no network) is forgotten, so the next opening tries again.
  regionModule ??= import('@lm/shared/regions').catch((error: unknown) => {
    regionModule = null;
    throw error;
  });
  return regionModule;
}
const loadRegions = () => loadRegionTable().then((m) => m.REGIONS);

/** The picker's value for a stored six-digit city code (null when empty or not in the table). */
export async function cityValueOf(code: string | null | undefined): Promise<CityValue | null> {
  if (!code) return null;
  return (await loadRegionTable()).findCity(code);
}

/**
 * Province → city picker on the two-level region table (loaded when first opened). Works as an
 * antd-mobile Form.Item child (value / onChange).
 */
export function CityPicker({
  value,
  onChange,
  placeholder = '请选择城市',
  title = '选择城市',
}: CityPickerProps) {
  const [visible, setVisible] = useState(false);
  const [opened, setOpened] = useState(false);
  const [regions, setRegions] = useState<Region[] | null>(null);
  usePrefetchWhenIdle(loadPicker);

  const open = () => {
    setVisible(true);
    setOpened(true);
    // Without a network the table waits for it (网络连接错误), then arrives by itself (docs/decisions/058).
    if (!regions) void loadChunk(loadRegions).then(setRegions, () => undefined);
  };

  return (
    <>
      <button type="button" className={styles.trigger} onClick={open} aria-haspopup="dialog">
        {value ? (
          <span>{value.province === value.city ? value.city : `${value.province} ${value.city}`}</span>
        ) : (
          <span className={styles.placeholder}>{placeholder}</span>
        )}
      </button>
      {opened && (
        <Suspense fallback={null}>
          <CascadePicker
            title={title}
            visible={visible}
            options={regions ?? []}
            loading={!regions}
            value={value ? [value.provinceCode, value.cityCode] : []}
            onClose={() => setVisible(false)}
            onConfirm={(_, extend) => {
              const [province, city] = extend.items;
              if (province && city) {
                onChange?.({
                  provinceCode: String(province.value),
                  province: String(province.label),
                  cityCode: String(city.value),
                  city: String(city.label),
                });
              }
            }}
          />
        </Suspense>
      )}
    </>
  );
}
