import type { FunnelArm, FunnelArmsData } from '@lm/shared/schemas/funnel';
import {
  Alert,
  Button,
  Card,
  Empty,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { downloadCsv, toCsv } from '@/lib/csv';
import { useFunnelArms } from '../api/get-funnel-arms';
import type { FunnelChannel } from '../api/get-funnel-channels';
import type { FunnelFilters } from '../api/types';
import { count, percent, points, pValue } from './format';

interface ComparisonRow {
  step: string;
  label: string;
  controlCount: number;
  controlRate: number | null;
  count: number;
  rate: number | null;
  test: FunnelArm['steps'][number]['test'];
}

const VERDICT_COLOR: Record<ComparisonRow['test']['verdict'], string> = {
  significant: 'green',
  not_significant: 'default',
  too_small: 'orange',
  control: 'blue',
};
const VERDICT_LABEL: Record<ComparisonRow['test']['verdict'], string> = {
  significant: '显著',
  not_significant: '不显著',
  too_small: '样本不足',
  control: '基准',
};

const skinName = (skin: number | null) => (skin === null ? '未知皮肤' : `skin${skin}`);

function comparison(control: FunnelArm, arm: FunnelArm): ComparisonRow[] {
  return arm.steps.map((s, i) => ({
    step: s.step,
    label: s.label,
    controlCount: control.steps[i]?.count ?? 0,
    controlRate: control.steps[i]?.rate ?? null,
    count: s.count,
    rate: s.rate,
    test: s.test,
  }));
}

const columns: TableColumnsType<ComparisonRow> = [
  { title: '步骤', dataIndex: 'label', key: 'label', fixed: 'left', width: 110 },
  { title: '对照组人数', dataIndex: 'controlCount', key: 'controlCount', align: 'right', render: count },
  {
    title: '对照组转化率',
    dataIndex: 'controlRate',
    key: 'controlRate',
    align: 'right',
    render: (v) => percent(v),
  },
  { title: '实验组人数', dataIndex: 'count', key: 'count', align: 'right', render: count },
  { title: '实验组转化率', dataIndex: 'rate', key: 'rate', align: 'right', render: (v) => percent(v) },
  { title: '差值', key: 'diff', align: 'right', render: (_, r) => points(r.test.diff) },
  {
    title: '95% 置信区间',
    key: 'ci',
    align: 'right',
    render: (_, r) => (r.test.ciLow === null ? '—' : `${points(r.test.ciLow)} ~ ${points(r.test.ciHigh)}`),
  },
  { title: 'z', key: 'z', align: 'right', render: (_, r) => (r.test.z === null ? '—' : r.test.z.toFixed(2)) },
  { title: 'p 值', key: 'p', align: 'right', render: (_, r) => pValue(r.test.p) },
  {
    title: '结论',
    key: 'verdict',
    width: 320,
    render: (_, r) => (
      <Space size={4} align="start">
        <Tag color={VERDICT_COLOR[r.test.verdict]}>{VERDICT_LABEL[r.test.verdict]}</Tag>
        {r.test.verdict !== 'control' && (
          <Typography.Text type="secondary">{r.test.verdictText}</Typography.Text>
        )}
      </Space>
    ),
  },
];

function exportComparison(data: FunnelArmsData, control: FunnelArm, arm: FunnelArm) {
  const csv = toCsv(comparison(control, arm), [
    { title: '步骤', value: (r) => r.label },
    { title: `对照组(${skinName(control.skin)})人数`, value: (r) => r.controlCount },
    { title: '对照组转化率', value: (r) => percent(r.controlRate) },
    { title: `实验组(${skinName(arm.skin)})人数`, value: (r) => r.count },
    { title: '实验组转化率', value: (r) => percent(r.rate) },
    { title: '差值(百分点)', value: (r) => (r.test.diff === null ? '' : (r.test.diff * 100).toFixed(2)) },
    {
      title: '95%CI下限(百分点)',
      value: (r) => (r.test.ciLow === null ? '' : (r.test.ciLow * 100).toFixed(2)),
    },
    {
      title: '95%CI上限(百分点)',
      value: (r) => (r.test.ciHigh === null ? '' : (r.test.ciHigh * 100).toFixed(2)),
    },
    { title: 'z', value: (r) => (r.test.z === null ? '' : r.test.z.toFixed(4)) },
    { title: 'p值', value: (r) => (r.test.p === null ? '' : r.test.p.toPrecision(4)) },
    { title: '结论', value: (r) => r.test.verdictText },
  ]);
  downloadCsv(
    `AB对比_${data.adChannelCode}_${skinName(arm.skin)}_vs_${skinName(control.skin)}_${data.from}_${data.to}`,
    csv,
  );
}

/** A/B skins: each arm against the control (the first configured arm), step by step. */
export function ArmsPanel({ filters, channels }: { filters: FunnelFilters; channels: FunnelChannel[] }) {
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const channelCode = picked ?? (filters.channelCodes.length === 1 ? filters.channelCodes[0] : undefined);
  const arms = useFunnelArms(channelCode ? { channelCode, from: filters.from, to: filters.to } : null);
  const data = arms.data;
  const control = data?.arms[0];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap>
          <span>渠道：</span>
          <Select
            aria-label="A/B 渠道"
            showSearch
            style={{ minWidth: 280 }}
            placeholder="选择一个渠道查看 A/B 分组"
            value={channelCode}
            optionFilterProp="label"
            options={channels.map((c) => ({
              value: c.adChannelCode,
              label: `${c.name}（${c.adChannelCode}）`,
            }))}
            onChange={(code: string) => setPicked(code)}
          />
          <Typography.Text type="secondary">
            日期 {filters.from} 至 {filters.to}；转化率 = 该步骤人数 ÷ 本组渠道点击人数；显著性为双侧两比例 z
            检验（α=0.05）。
          </Typography.Text>
        </Space>
      </Card>
      {!channelCode ? (
        <Empty description="请选择一个渠道" />
      ) : arms.isError ? (
        <Alert type="error" showIcon message="A/B 数据加载失败" description={arms.error.message} />
      ) : !data || !control ? (
        <Card loading />
      ) : (
        <>
          <Card size="small" title="分组">
            <Space wrap>
              {data.arms.map((a) => (
                <Tag
                  key={String(a.skin)}
                  color={a.isControl ? 'blue' : a.weight === null ? 'default' : 'purple'}
                >
                  {skinName(a.skin)}
                  {a.isControl ? '（对照组）' : a.weight === null ? '（未配置分组）' : '（实验组）'}
                  {a.weight !== null ? ` 权重 ${a.weight}` : ''} · 点击 {count(a.steps[0]?.count ?? 0)}
                </Tag>
              ))}
            </Space>
            <div style={{ marginTop: 8, color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
              每组基准步骤（渠道点击）少于 {data.minSample} 人，或预期转化/未转化人数少于 5
              人时，不给出显著性结论。
            </div>
          </Card>
          {data.arms.length === 1 && (
            <Alert
              type="info"
              showIcon
              message="该渠道没有可对比的分组"
              description="渠道未配置 A/B 皮肤分组，所选日期内也只有一种皮肤的数据。可在渠道管理中为该渠道配置皮肤分组。"
            />
          )}
          {data.arms.slice(1).map((arm) => (
            <Card
              key={String(arm.skin)}
              size="small"
              title={`${skinName(arm.skin)} 对比 对照组 ${skinName(control.skin)}`}
              extra={
                <Button size="small" onClick={() => exportComparison(data, control, arm)}>
                  导出 CSV
                </Button>
              }
            >
              <Table<ComparisonRow>
                rowKey="step"
                size="small"
                columns={columns}
                dataSource={comparison(control, arm)}
                loading={arms.isFetching}
                pagination={false}
                scroll={{ x: 'max-content' }}
              />
            </Card>
          ))}
        </>
      )}
    </Space>
  );
}
