import { FUNNEL_MAX_DAYS } from '@lm/shared/schemas/funnel';
import { shanghaiDay } from '@lm/shared/time';
import { Button, Form, Select, Space, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { SkinFilter } from '@/components/list-filters';
import { ReportFilters } from '@/components/report-filters';
import type { FunnelChannel } from '../api/get-funnel-channels';
import type { FunnelFilters } from '../api/types';

interface FunnelFiltersProps {
  value: FunnelFilters;
  onChange: (next: FunnelFilters) => void;
  channels: FunnelChannel[];
  channelsLoading: boolean;
  /** A channel partner: only its channels, shown as such. */
  partner: boolean;
}

const FORMAT = 'YYYY-MM-DD';

/** 日期范围（上海时间，最多 92 天）、渠道（多选）、皮肤. */
export function FunnelFiltersBar({
  value,
  onChange,
  channels,
  channelsLoading,
  partner,
}: FunnelFiltersProps) {
  const today = dayjs(shanghaiDay());
  const presets: { label: string; value: [Dayjs, Dayjs] }[] = [
    { label: '今天', value: [today, today] },
    { label: '昨天', value: [today.subtract(1, 'day'), today.subtract(1, 'day')] },
    { label: '近7天', value: [today.subtract(6, 'day'), today] },
    { label: '近30天', value: [today.subtract(29, 'day'), today] },
    { label: `近${FUNNEL_MAX_DAYS}天`, value: [today.subtract(FUNNEL_MAX_DAYS - 1, 'day'), today] },
  ];
  return (
    <ReportFilters
      value={value}
      maxDays={FUNNEL_MAX_DAYS}
      today={today}
      presets={presets}
      onChange={(range) => onChange({ ...value, ...range })}
    >
      <Form.Item label={partner ? '我的渠道' : '渠道'}>
        <Select
          aria-label="渠道"
          mode="multiple"
          allowClear
          showSearch
          loading={channelsLoading}
          style={{ minWidth: 260, maxWidth: 520 }}
          placeholder={partner ? '全部我的渠道' : '全部渠道'}
          value={value.channelCodes}
          optionFilterProp="label"
          options={channels.map((c) => ({
            value: c.adChannelCode,
            label: `${c.name}（${c.adChannelCode}）`,
          }))}
          onChange={(codes: string[]) => onChange({ ...value, channelCodes: codes })}
          maxTagCount="responsive"
        />
      </Form.Item>
      <Form.Item label="皮肤">
        <SkinFilter value={value.skin} onChange={(skin) => onChange({ ...value, skin })} />
      </Form.Item>
      <Form.Item>
        <Space>
          <Button
            onClick={() =>
              onChange({
                from: today.subtract(6, 'day').format(FORMAT),
                to: today.format(FORMAT),
                channelCodes: [],
              })
            }
          >
            重置
          </Button>
          {partner && <Tag color="purple">渠道合作方视图：与运营看到的该渠道数据完全一致</Tag>}
        </Space>
      </Form.Item>
    </ReportFilters>
  );
}
