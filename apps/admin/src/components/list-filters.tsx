import { SKINS } from '@lm/shared/channel';
import { type GetProps, Input, Select } from 'antd';
import { useState } from 'react';

type SearchFilterProps = Omit<GetProps<typeof Input.Search>, 'value' | 'onChange' | 'onSearch'> & {
  /** The filter's current value (what the box shows when the page opens). */
  value: string | undefined;
  /** The searched text, trimmed; undefined when empty. */
  onSearch: (value: string | undefined) => void;
};

/**
 * The search box of a list page's filter bar: what is typed stays in the box, and filters the list
 * only when searched (Enter or the button); clearing it searches for nothing.
 */
export function SearchFilter({ value, onSearch, ...props }: SearchFilterProps) {
  const [draft, setDraft] = useState(value ?? '');
  return (
    <Input.Search
      allowClear
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onSearch={(v) => onSearch(v.trim() || undefined)}
      {...props}
    />
  );
}

type SelectFilterProps<V> = Omit<GetProps<typeof Select<V>>, 'aria-label' | 'style'> & {
  /** What the filter is, for screen readers (「线索状态」). */
  label: string;
  width: number;
};

/** A choice of a list page's filter bar, clearable (cleared: no filter). */
export function SelectFilter<V>({ label, width, ...props }: SelectFilterProps<V>) {
  return <Select<V> aria-label={label} allowClear style={{ width }} {...props} />;
}

const SKIN_OPTIONS = SKINS.map((s) => ({ value: s, label: `skin${s}` }));

/** The skin filter of the reports (funnel, web vitals): one skin or all. */
export function SkinFilter({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (skin?: number) => void;
}) {
  return (
    <SelectFilter<number>
      label="皮肤"
      width={120}
      placeholder="全部皮肤"
      value={value}
      options={SKIN_OPTIONS}
      onChange={onChange}
    />
  );
}
