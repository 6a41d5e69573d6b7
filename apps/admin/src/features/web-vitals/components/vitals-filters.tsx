import {
  RUM_METRICS,
  type RumMetric,
  VITALS_GROUP_BY,
  VITALS_MAX_DAYS,
  type VitalsGroupBy,
} from '@lm/shared/schemas/rum';
import { Button, Form, Input, Segmented, Select } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { SkinFilter } from '@/components/list-filters';
import { ReportFilters } from '@/components/report-filters';
import type { WebVitalsFilters } from '../api/get-web-vitals';
import { GROUP_LABELS, METRIC_LABELS } from './format';

interface VitalsFiltersProps {
  value: WebVitalsFilters;
  today: string;
  onChange: (next: WebVitalsFilters) => void;
  onReset: () => void;
}

/** 日期范围（上海时间）、分组、指标、渠道、皮肤、路由. */
export function VitalsFiltersBar({ value, today: todayText, onChange, onReset }: VitalsFiltersProps) {
  const today = dayjs(todayText);
  const [channel, setChannel] = useState(value.channelCode ?? '');
  const [route, setRoute] = useState(value.route ?? '');
  return (
    <ReportFilters
      value={value}
      maxDays={VITALS_MAX_DAYS}
      today={today}
      presets={[
        { label: '今天', value: [today, today] },
        { label: '近7天', value: [today.subtract(6, 'day'), today] },
        { label: '近30天', value: [today.subtract(29, 'day'), today] },
      ]}
      onChange={(range) => onChange({ ...value, ...range })}
    >
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
        <SkinFilter value={value.skin} onChange={(skin) => onChange({ ...value, skin })} />
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
    </ReportFilters>
  );
}
