import type { RoiAbTest, RoiRow } from '@lm/shared/schemas/roi';
import { Alert, Card, Empty, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'react';
import { EChart } from '@/components/echart/echart';
import { QueryError } from '@/components/query-error';
import { useRoi } from '../api/get-roi';
import { count, yuan } from './format';

type Arm = RoiAbTest['arms'][number];

const VERDICT_COLOR: Record<Arm['test']['verdict'], string> = {
  significant: 'green',
  not_significant: 'default',
  too_small: 'orange',
  control: 'blue',
};
const VERDICT_LABEL: Record<Arm['test']['verdict'], string> = {
  significant: '显著',
  not_significant: '不显著',
  too_small: '样本不足',
  control: '对照组',
};

const skinName = (skin: number | null) => (skin === null ? '未知皮肤' : `skin${skin}`);
const rate = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(2)}%`);

function armColumns(test: RoiAbTest, amounts: boolean): TableColumnsType<Arm> {
  return [
    {
      title: '分组',
      key: 'skin',
      render: (_, a) => (
        <Space size={4}>
          {skinName(a.skin)}
          {a.isControl && <Tag color="blue">对照组</Tag>}
        </Space>
      ),
    },
    { title: '访客（点击）', key: 'visitors', align: 'right', render: (_, a) => count(a.visitors) },
    ...(amounts
      ? [
          {
            title: '收入（元）',
            key: 'rev',
            align: 'right' as const,
            render: (_: unknown, a: Arm) => yuan(a.revenueFen),
          },
          {
            title: '每访客收入（元）',
            key: 'rpv',
            align: 'right' as const,
            render: (_: unknown, a: Arm) => <strong>{yuan(a.revenuePerVisitorFen)}</strong>,
          },
        ]
      : []),
    { title: `${test.stepLabel}人数`, key: 'count', align: 'right', render: (_, a) => count(a.count) },
    { title: `${test.stepLabel}率`, key: 'rate', align: 'right', render: (_, a) => rate(a.rate) },
    {
      title: '显著性（与 A/B 页一致）',
      key: 'test',
      width: 360,
      render: (_, a) => (
        <Space size={4} align="start">
          <Tag color={VERDICT_COLOR[a.test.verdict]}>{VERDICT_LABEL[a.test.verdict]}</Tag>
          {a.test.verdict !== 'control' && (
            <Typography.Text type="secondary">{a.test.verdictText}</Typography.Text>
          )}
        </Space>
      ),
    },
  ];
}

/** Revenue per visitor per skin (groupBy=skin) and each channel's A/B arms with the A/B page's significance. */
export function SkinArms({ from, to }: { from: string; to: string }) {
  const q = useRoi({ from, to, groupBy: 'skin' });
  const data = q.data;
  const perVisitor = useMemo(
    () =>
      (data?.rows ?? []).filter(
        (r): r is RoiRow & { revenuePerVisitorFen: number } => typeof r.revenuePerVisitorFen === 'number',
      ),
    [data],
  );
  const option = useMemo<EChartsCoreOption>(
    () => ({
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (params: { dataIndex: number }[]) => {
          const r = perVisitor[params[0]?.dataIndex ?? 0];
          return r
            ? `${r.label}<br/>每访客收入 ${yuan(r.revenuePerVisitorFen)} 元<br/>访客 ${count(r.clicks)}`
            : '';
        },
      },
      grid: { left: 64, right: 24, top: 16, bottom: 32 },
      xAxis: { type: 'category', data: perVisitor.map((r) => r.label ?? r.key) },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => yuan(v) } },
      series: [
        {
          name: '每访客收入',
          type: 'bar',
          barMaxWidth: 40,
          data: perVisitor.map((r) => r.revenuePerVisitorFen),
        },
      ],
    }),
    [perVisitor],
  );

  return (
    <Card size="small" title="皮肤 A/B：每访客收入" style={{ marginBottom: 16 }}>
      {q.isError ? (
        <QueryError message="皮肤数据加载失败" error={q.error} onRetry={() => q.refetch()} />
      ) : !data ? null : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Typography.Text type="secondary">
            每访客收入 =（收入 − 退回冲减）÷
            渠道点击（同一设备同一渠道每天算一次）；成本按当天各皮肤点击数分摊。显著性取自 A/B 页：各组
            {data.abTests[0]?.stepLabel ?? '授权'}率（以点击为基数）与对照组的双侧两比例 z
            检验（α=0.05），每访客收入本身不做检验。
          </Typography.Text>
          {!data.amountsShown ? (
            <Alert type="info" showIcon message="查看者账号不显示金额，下方只列访客与显著性" />
          ) : perVisitor.length === 0 ? (
            <Empty description="所选日期内没有点击" />
          ) : (
            <EChart option={option} height={220} ariaLabel="各皮肤每访客收入" />
          )}
          {data.abTests.length === 0 ? (
            <Typography.Text type="secondary">
              所选日期内没有正在做皮肤 A/B 测试且有点击的渠道。
            </Typography.Text>
          ) : (
            data.abTests.map((t) => (
              <section key={t.adChannelCode} aria-label={`A/B 分组 ${t.adChannelCode}`}>
                <Typography.Title level={5} style={{ marginTop: 0 }}>
                  {t.name}（{t.adChannelCode}）
                </Typography.Title>
                <Table<Arm>
                  rowKey={(a) => String(a.skin)}
                  size="small"
                  pagination={false}
                  columns={armColumns(t, data.amountsShown)}
                  dataSource={t.arms}
                  scroll={{ x: 'max-content' }}
                />
              </section>
            ))
          )}
        </Space>
      )}
    </Card>
  );
}
