import type { FunnelSideStepRow, FunnelStepRow } from '@lm/shared/schemas/funnel';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Row,
  Statistic,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useMemo } from 'react';
import { EChart } from '@/components/echart/echart';
import { downloadCsv, toCsv } from '@/lib/csv';
import { useFunnel } from '../api/get-funnel';
import type { FunnelFilters } from '../api/types';
import { count, percent } from './format';

const columns: TableColumnsType<FunnelStepRow> = [
  { title: '步骤', dataIndex: 'label', key: 'label', width: 120 },
  { title: '人数', dataIndex: 'count', key: 'count', align: 'right', render: (n: number) => count(n) },
  {
    title: '会话数',
    dataIndex: 'sessions',
    key: 'sessions',
    align: 'right',
    render: (n: number) => count(n),
  },
  {
    title: '上一步转化率',
    dataIndex: 'fromPrevious',
    key: 'fromPrevious',
    align: 'right',
    render: (v: number | null) => percent(v),
  },
  {
    title: '总转化率',
    dataIndex: 'fromFirst',
    key: 'fromFirst',
    align: 'right',
    render: (v: number | null) => percent(v),
  },
  {
    title: '流失人数',
    dataIndex: 'dropOff',
    key: 'dropOff',
    align: 'right',
    // null: more reached this step than the one before (some came another way) — no drop-off to show.
    render: (n: number | null) => (n === null ? '—' : count(n)),
  },
  {
    title: '流失率',
    dataIndex: 'dropOffRate',
    key: 'dropOffRate',
    align: 'right',
    render: (v: number | null) => percent(v),
  },
];

function exportSteps(rows: FunnelStepRow[], f: FunnelFilters) {
  const csv = toCsv(rows, [
    { title: '步骤', value: (r) => r.label },
    { title: '步骤代码', value: (r) => r.step },
    { title: '人数', value: (r) => r.count },
    { title: '会话数', value: (r) => r.sessions },
    { title: '上一步转化率', value: (r) => percent(r.fromPrevious) },
    { title: '总转化率', value: (r) => percent(r.fromFirst) },
    { title: '流失人数', value: (r) => r.dropOff ?? '' },
    { title: '流失率', value: (r) => percent(r.dropOffRate) },
  ]);
  downloadCsv(
    `转化漏斗_${f.from}_${f.to}${f.channelCodes.length ? `_${f.channelCodes.join('+')}` : ''}`,
    csv,
  );
}

/** The funnel chart and its table: visitors per step, conversion and drop-off. */
export function FunnelOverview({ filters }: { filters: FunnelFilters }) {
  const funnel = useFunnel(filters);
  const rows = funnel.data?.steps;
  const option = useMemo(() => {
    if (!rows) return null;
    const max = Math.max(1, ...rows.map((r) => r.count));
    return {
      tooltip: {
        trigger: 'item',
        formatter: (p: { dataIndex: number }) => {
          const r = rows[p.dataIndex];
          if (!r) return '';
          return `${r.label}<br/>人数：${count(r.count)}<br/>上一步转化率：${percent(r.fromPrevious)}<br/>总转化率：${percent(r.fromFirst)}`;
        },
      },
      series: [
        {
          name: '转化漏斗',
          type: 'funnel',
          sort: 'none',
          // The shapes on the left, their labels to the right: a narrow step's label never spills over.
          left: 8,
          width: '48%',
          top: 10,
          bottom: 10,
          min: 0,
          max,
          minSize: '4%',
          gap: 2,
          label: {
            show: true,
            position: 'right',
            color: '#262626',
            fontSize: 12,
            formatter: (p: { dataIndex: number }) => {
              const r = rows[p.dataIndex];
              return r ? `${r.label} ${count(r.count)}` : '';
            },
          },
          labelLine: { show: true, length: 8 },
          data: rows.map((r) => ({ name: r.label, value: r.count })),
        },
      ],
    };
  }, [rows]);

  if (funnel.isError)
    return (
      <Alert
        type="error"
        showIcon
        message="漏斗数据加载失败"
        description={funnel.error.message}
        action={<Button onClick={() => funnel.refetch()}>重试</Button>}
      />
    );
  const empty = rows?.every((r) => r.count === 0);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={14}>
        <Card title="转化漏斗" size="small" loading={funnel.isPending}>
          {empty ? (
            <Empty description="所选范围内还没有数据" />
          ) : (
            option && <EChart option={option} height={380} ariaLabel="转化漏斗图" />
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            漏斗只含依次经过的步骤：从渠道点击到授权，再到机构回传的授信、放款。
          </Typography.Text>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <SideSteps rows={funnel.data?.sideSteps} loading={funnel.isPending} />
      </Col>
      <Col xs={24}>
        <Card
          title="各步骤明细"
          size="small"
          extra={
            <Button size="small" disabled={!rows} onClick={() => rows && exportSteps(rows, filters)}>
              导出 CSV
            </Button>
          }
        >
          <Table<FunnelStepRow>
            rowKey="step"
            size="small"
            columns={columns}
            dataSource={rows ?? []}
            loading={funnel.isFetching}
            pagination={false}
            scroll={{ x: 640 }}
            locale={{ emptyText: <Empty description="暂无数据" /> }}
          />
          <div style={{ marginTop: 8, color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
            人数：同一设备同一天只算一人（渠道点击同样按设备每天一次）；会话数：每个浏览器会话每步只上报一次。授信、放款按人计（一人获多家机构授信或放款只算一人），计入此人授权的那一天及当时的渠道和皮肤：机构之后才回传的结果也算在授权那天，所以近几天的授信、放款还会增加。流失人数为「—」：到达这一步的比上一步多（有人从别的入口进入），不算流失。
          </div>
        </Card>
      </Col>
    </Row>
  );
}

/** The steps only some journeys reach (挽留弹窗 …): beside the funnel, each on its own. */
function SideSteps({ rows, loading }: { rows: FunnelSideStepRow[] | undefined; loading: boolean }) {
  return (
    <Card title="漏斗之外的步骤" size="small" loading={loading} data-testid="funnel-side-steps">
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        这些步骤不是每个人都会经过，不在漏斗里计算转化和流失。
      </Typography.Paragraph>
      <Row gutter={[12, 12]}>
        {(rows ?? []).map((r) => (
          <Col key={r.step} xs={24} sm={12} lg={24} xl={12}>
            <Statistic title={r.label} value={r.count} groupSeparator="," suffix="人" />
            <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
              {r.hint}
              {r.base ? `；占${r.baseLabel} ${percent(r.rate)}` : ''}
            </Typography.Text>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
