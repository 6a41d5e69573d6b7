import { CascadePicker } from 'antd-mobile';
import { useState } from 'react';
import styles from './city-picker.module.css';
import type { Region } from './regions';

export interface CityValue {
  provinceCode: string;
  province: string;
  cityCode: string;
  city: string;
}

interface CityPickerProps {
  value?: CityValue | null;
  onChange?: (value: CityValue) => void;
  placeholder?: string;
  title?: string;
}

let regionsPromise: Promise<Region[]> | null = null;
const loadRegions = () => {
  regionsPromise ??= import('./regions').then((m) => m.REGIONS);
  return regionsPromise;
};

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
  const [regions, setRegions] = useState<Region[] | null>(null);

  const open = () => {
    setVisible(true);
    if (!regions) void loadRegions().then(setRegions);
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
    </>
  );
}
