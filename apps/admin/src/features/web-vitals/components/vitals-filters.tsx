import { SKINS } from '@lm/shared/channel';
import {
  RUM_METRICS,
  type RumMetric,
  VITALS_GROUP_BY,
  VITALS_MAX_DAYS,
  type VitalsGroupBy,
} from '@lm/shared/schemas/rum';
import { Button, Card, DatePicker, Form, Input, Segmented, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import type { WebVitalsFilters } from '../api/get-web-vitals';
import { GROUP_LABELS, METRIC_LABELS } from './format';

const FORMAT = 'YYYY-MM-DD';

interface VitalsFiltersProps {
  value: WebVitalsFilters;
  today: string;
  onChange: (next: WebVitalsFilters) => void;
  onReset: () => void;
}

/** 日期范围（上海时间）、分组、指标、渠道、皮肤、路由. */
export function VitalsFiltersBar({ value, today: todayText, onChange, onReset }: VitalsFiltersProps) {
  const today = dayjs(todayText);
  const [picking, setPicking] = useState<Dayjs | null>(null);
  const [channel, setChannel] = useState(value.channelCode ?? '');
  const [route, setRoute] = useState(value.route ?? '');
  return (
    <Card size="small" style={{ marginBottom: 16 }}>
      <Form layout="inline" style={{ rowGap: 8 }}>
        <Form.Item label="日期">
          <DatePicker.RangePicker
            aria-label="日期范围"
            allowClear={false}
            value={[dayjs(value.from), dayjs(value.to)]}
            presets={[
              { label: '今天', value: [today, today] },
              { label: '近7天', value: [today.subtract(6, 'day'), today] },
              { label: '近30天', value: [today.subtract(29, 'day'), today] },
            ]}
            onCalendarChange={(dates) => setPicking(dates?.[0] ?? null)}
            onOpenChange={(open) => !open && setPicking(null)}
            disabledDate={(d) =>
              d.isAfter(today, 'day') ||
              (picking !== null && Math.abs(d.diff(picking, 'day')) >= VITALS_MAX_DAYS)
            }
            onChange={(dates) => {
              if (dates?.[0] && dates[1])
                onChange({ ...value, from: dates[0].format(FORMAT), to: dates[1].format(FORMAT) });
            }}
          />
        </Form.Item>
        <Form.Item label="分组">
          <Segmented<VitalsGroupBy>
            aria-label="分组"
            value={value.groupBy}
            options={VITALS_GROUP_BY.map((g) => ({ value: g, label: `按${GROUP_LABELS[g]}` }))}
            onChange={(groupBy) => onChange({ ...value, groupBy })}
          />
        </Form.Item>
        <Form.Item label="指标">
          <Select<RumMetric>
            aria-label="指标"
            allowClear
            style={{ width: 200 }}
            placeholder="全部指标"
            value={value.metric}
            options={RUM_METRICS.map((m) => ({ value: m, label: METRIC_LABELS[m] }))}
            onChange={(metric) => onChange({ ...value, metric })}
          />
        </Form.Item>
        <Form.Item label="渠道">
          <Input.Search
            aria-label="渠道号"
            allowClear
            style={{ width: 200 }}
            placeholder="渠道号"
            value={channel}
            onChange={(e) => setChannel(e.target.value)}
            onSearch={(v) => onChange({ ...value, channelCode: v.trim() || undefined })}
          />
        </Form.Item>
        <Form.Item label="皮肤">
          <Select<number>
            aria-label="皮肤"
            allowClear
            style={{ width: 120 }}
            placeholder="全部皮肤"
            value={value.skin}
            options={SKINS.map((s) => ({ value: s, label: `skin${s}` }))}
            onChange={(skin) => onChange({ ...value, skin })}
          />
        </Form.Item>
        <Form.Item label="路由">
          <Input.Search
            aria-label="路由"
            allowClear
            style={{ width: 220 }}
            placeholder="如 /fill-information"
            value={route}
            onChange={(e) => setRoute(e.target.value)}
            onSearch={(v) => onChange({ ...value, route: v.trim() || undefined })}
          />
        </Form.Item>
        <Form.Item>
          <Button
            onClick={() => {
              setChannel('');
              setRoute('');
              onReset();
            }}
          >
            重置
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
