import { Card, Col, Empty, Row, Typography } from 'antd';
import { useMemo } from 'react';
import { StaffCard } from '@/features/auth/components/staff-card';
import { useDashboard } from '@/features/dashboard/api/get-dashboard';
import { KeyFigures } from '@/features/dashboard/components/key-figures';
import { TrendChart } from '@/features/funnel/components/trend-chart';
import { HealthCard } from '@/features/system/components/health-card';

/**
 * 概览: today vs yesterday and the last 14 days. Staff only: the console's layout sends a channel partner
 * to its funnel before this page starts (app/access.ts).
 */
export function DashboardRoute() {
  const dashboard = useDashboard();
  const data = dashboard.data;
  const days = useMemo(() => data?.trend.map((d) => d.day) ?? [], [data]);
  const series = useMemo(
    () =>
      data
        ? [
            { name: '渠道点击（设备）', values: data.trend.map((d) => d.clicks) },
            { name: '登录（人）', values: data.trend.map((d) => d.logins) },
            { name: '提交资料（人）', values: data.trend.map((d) => d.submits) },
            { name: '授权（人）', values: data.trend.map((d) => d.authorizations) },
            { name: '授信（人）', values: data.trend.map((d) => d.credits) },
            { name: '放款（人）', values: data.trend.map((d) => d.loans) },
          ]
        : [],
    [data],
  );
  const empty = data?.trend.every(
    (d) => d.clicks + d.logins + d.submits + d.authorizations + d.credits + d.loans === 0,
  );
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        概览
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {data ? `今天是 ${data.today}（上海时间）。` : ''}
        各项为今天截至目前的数字，与昨天全天对比；每分钟自动刷新。登录、提交资料、授权按人计（一人只算一次）；
        渠道点击和落地页访问发生在登录前，按设备计；线索按条计（一人授权几个产品就有几条）；
        {'授信、放款按人计，计入授权当天（机构之后回传的结果也算在授权那天）。'}
      </Typography.Paragraph>
      <KeyFigures
        data={data}
        loading={dashboard.isPending}
        error={dashboard.error}
        onRetry={() => dashboard.refetch()}
      />
      <Card title="近 14 天趋势" size="small" style={{ marginTop: 16 }} loading={dashboard.isPending}>
        {empty ? (
          <Empty description="近 14 天还没有数据" />
        ) : (
          data && <TrendChart days={days} series={series} height={260} ariaLabel="近14天趋势图" />
        )}
      </Card>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={24} xl={12}>
          <StaffCard />
        </Col>
        <Col xs={24} xl={12}>
          <HealthCard />
        </Col>
      </Row>
    </>
  );
}
