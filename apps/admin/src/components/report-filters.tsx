import { Card, DatePicker, Form } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';

const FORMAT = 'YYYY-MM-DD';

export interface ReportRangeProps {
  /** The range shown, Shanghai calendar days (YYYY-MM-DD), both ends set. */
  from: string;
  to: string;
  /** Today (Shanghai): no later day can be picked. */
  today: Dayjs;
  /** The longest range a report allows, in days. */
  maxDays: number;
  presets: { label: string; value: [Dayjs, Dayjs] }[];
  onChange: (range: { from: string; to: string }) => void;
}

/**
 * A report's day range (funnel, web vitals): never cleared, no day after today, and once the first
 * day is picked no second one more than `maxDays` away.
 */
export function ReportRange({ from, to, today, maxDays, presets, onChange }: ReportRangeProps) {
  const [picking, setPicking] = useState<Dayjs | null>(null);
  return (
    <DatePicker.RangePicker
      aria-label="日期范围"
      allowClear={false}
      value={[dayjs(from), dayjs(to)]}
      presets={presets}
      onCalendarChange={(dates) => setPicking(dates?.[0] ?? null)}
      onOpenChange={(open) => !open && setPicking(null)}
      disabledDate={(d) =>
        d.isAfter(today, 'day') || (picking !== null && Math.abs(d.diff(picking, 'day')) >= maxDays)
      }
      onChange={(dates) => {
        if (dates?.[0] && dates[1]) onChange({ from: dates[0].format(FORMAT), to: dates[1].format(FORMAT) });
      }}
    />
  );
}

/** The filter bar of a report (funnel, web vitals): the day range, then the report's own filters. */
export function ReportFilters({
  value,
  children,
  ...range
}: Omit<ReportRangeProps, 'from' | 'to'> & { value: { from: string; to: string }; children: ReactNode }) {
  return (
    <Card size="small" style={{ marginBottom: 16 }}>
      <Form layout="inline" style={{ rowGap: 8 }}>
        <Form.Item label="日期">
          <ReportRange from={value.from} to={value.to} {...range} />
        </Form.Item>
        {children}
      </Form>
    </Card>
  );
}
