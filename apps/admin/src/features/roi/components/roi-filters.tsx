import { ROI_GROUP_LABELS, ROI_GROUPS, ROI_MAX_DAYS, type RoiGroupBy } from '@lm/shared/schemas/roi';
import { shanghaiDay } from '@lm/shared/time';
import { Form, Segmented } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { ReportFilters } from '@/components/report-filters';
import type { RoiFilters } from '../api/get-roi';

/** 日期范围（上海时间，最多 366 天）and 分组（渠道 / 日期 / 皮肤）. */
export function RoiFiltersBar({ value, onChange }: { value: RoiFilters; onChange: (f: RoiFilters) => void }) {
  const today = dayjs(shanghaiDay());
  const presets: { label: string; value: [Dayjs, Dayjs] }[] = [
    { label: '近7天', value: [today.subtract(6, 'day'), today] },
    { label: '近30天', value: [today.subtract(29, 'day'), today] },
    { label: '本月', value: [today.startOf('month'), today] },
    {
      label: '上月',
      value: [today.subtract(1, 'month').startOf('month'), today.subtract(1, 'month').endOf('month')],
    },
    { label: '近一年', value: [today.subtract(ROI_MAX_DAYS - 1, 'day'), today] },
  ];
  return (
    <ReportFilters
      value={value}
      maxDays={ROI_MAX_DAYS}
      today={today}
      presets={presets}
      onChange={(range) => onChange({ ...value, ...range })}
    >
      <Form.Item label="分组">
        <Segmented<RoiGroupBy>
          aria-label="分组"
          value={value.groupBy}
          options={ROI_GROUPS.map((g) => ({ value: g, label: `按${ROI_GROUP_LABELS[g]}` }))}
          onChange={(groupBy) => onChange({ ...value, groupBy })}
        />
      </Form.Item>
    </ReportFilters>
  );
}
