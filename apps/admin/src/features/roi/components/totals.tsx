import type { RoiTotals } from '@lm/shared/schemas/roi';
import { Card, Col, Row, Statistic } from 'antd';
import { count, roiPercent, yuan } from './format';

/** The period's key figures: revenue, cost, margin, ROI, cost per lead (amounts) and the volumes. */
export function RoiTotalsCards({ totals, amountsShown }: { totals: RoiTotals; amountsShown: boolean }) {
  const items: { title: string; value: string; danger?: boolean }[] = [
    ...(amountsShown
      ? [
          { title: '收入（元）', value: yuan(totals.revenueFen) },
          { title: '退回冲减（元）', value: yuan(totals.returnedFen) },
          { title: '成本（元）', value: yuan(totals.costFen) },
          { title: '毛利（元）', value: yuan(totals.marginFen), danger: (totals.marginFen ?? 0) < 0 },
          { title: 'ROI', value: roiPercent(totals.roiBps), danger: (totals.roiBps ?? 0) < 0 },
          { title: '线索成本（元）', value: yuan(totals.costPerLeadFen) },
        ]
      : []),
    { title: '点击', value: count(totals.clicks) },
    { title: '线索', value: count(totals.leads) },
    { title: '放款', value: count(totals.funded) },
  ];
  return (
    <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
      {items.map((it) => (
        <Col key={it.title} xs={12} sm={8} md={6} lg={4} xl={3}>
          <Card size="small">
            <Statistic
              title={it.title}
              value={it.value}
              valueStyle={{ fontSize: 20, ...(it.danger ? { color: '#cf1322' } : {}) }}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
