import { DatePicker } from 'antd';
import dayjs from 'dayjs';

const FORMAT = 'YYYY-MM-DD';

export interface DateRangeFilterProps {
  /** Shanghai calendar days, YYYY-MM-DD; undefined: open on that side. */
  from: string | undefined;
  to: string | undefined;
  onChange: (range: { from: string | undefined; to: string | undefined }) => void;
  /** What the range filters, for screen readers ("注册日期"). */
  label: string;
}

/**
 * A list's day range as antd's picker (zh_CN like the rest of the console, not the browser's own
 * date field in the browser's language); either end may stay open.
 */
export function DateRangeFilter({ from, to, onChange, label }: DateRangeFilterProps) {
  return (
    <DatePicker.RangePicker
      aria-label={label}
      allowEmpty={[true, true]}
      style={{ width: 250 }}
      value={[from ? dayjs(from) : null, to ? dayjs(to) : null]}
      onChange={(dates) =>
        onChange({
          from: dates?.[0]?.format(FORMAT) ?? undefined,
          to: dates?.[1]?.format(FORMAT) ?? undefined,
        })
      }
    />
  );
}
