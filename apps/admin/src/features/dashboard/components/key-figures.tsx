import { DASHBOARD_COUNTS_LABELS, type DashboardData } from '@lm/shared/schemas/funnel';
import { Alert, Button, Card, Col, Row, Skeleton, Statistic, Tag, Tooltip, Typography } from 'antd';
import { changeText } from './change';

const COLORS = { up: '#389e0d', down: '#cf1322', flat: 'rgba(0,0,0,0.45)' } as const;

interface KeyFiguresProps {
  data: DashboardData | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
}

/** Today's key figures, each against yesterday. */
export function KeyFigures({ data, loading, error, onRetry }: KeyFiguresProps) {
  if (error)
    return (
      <Alert
        type="error"
        showIcon
        message="概览数据加载失败"
        description={error.message}
        action={<Button onClick={onRetry}>重试</Button>}
      />
    );
  if (loading || !data)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 2 }} />
      </Card>
    );
  return (
    <Row gutter={[16, 16]}>
      {data.figures.map((f) => {
        const c = changeText(f.today, f.yesterday);
        return (
          // Nine figures: five and four a row on a laptop (the funnel's first steps, then 授权 onwards), one
          // row on a wide screen.
          <Col
            key={f.key}
            xs={12}
            sm={8}
            md={6}
            xl={{ flex: '0 0 20%' }}
            xxl={{ flex: '1 1 0' }}
            style={{ minWidth: 0 }}
          >
            <Card size="small" style={{ height: '100%' }} data-testid={`figure-${f.key}`}>
              <Statistic
                title={
                  <Tooltip title={f.hint}>
                    <span>今日{f.label}</span>{' '}
                    <Tag bordered={false} style={{ marginInlineEnd: 0, fontSize: 11 }}>
                      {DASHBOARD_COUNTS_LABELS[f.counts]}
                    </Tag>
                  </Tooltip>
                }
                value={f.today}
                groupSeparator=","
              />
              <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
                {f.hint}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                昨日 {f.yesterday.toLocaleString('zh-CN')} ·{' '}
                <span style={{ color: COLORS[c.trend] }}>{c.text}</span>
              </Typography.Text>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
