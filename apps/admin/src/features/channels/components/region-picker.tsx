import { REGIONS } from '@lm/shared/regions';
import { Cascader } from 'antd';
import { useMemo } from 'react';
import { cityCodesFromPaths } from '../form';

const PROVINCE_OF = new Map<string, string>();
for (const p of REGIONS) for (const c of p.children ?? []) PROVINCE_OF.set(c.value, p.value);

export interface RegionPickerProps {
  value?: string[];
  onChange?: (codes: string[]) => void;
  disabled?: boolean;
}

/** Province → city multi-picker over the shared region table; the value is six-digit city codes. */
export function RegionPicker({ value, onChange, disabled }: RegionPickerProps) {
  const paths = useMemo(
    () => (value ?? []).filter((c) => PROVINCE_OF.has(c)).map((c) => [PROVINCE_OF.get(c)!, c]),
    [value],
  );
  return (
    <Cascader
      aria-label="排除城市"
      multiple
      showSearch={{
        filter: (input, path) => path.some((o) => String(o.label).includes(input.trim())),
      }}
      maxTagCount="responsive"
      showCheckedStrategy={Cascader.SHOW_CHILD}
      options={REGIONS}
      value={paths}
      disabled={disabled}
      placeholder="选择省份或城市（选省份即选中其全部城市）"
      onChange={(next) => onChange?.(cityCodesFromPaths((next ?? []) as (string | number)[][]))}
      style={{ width: '100%' }}
    />
  );
}
