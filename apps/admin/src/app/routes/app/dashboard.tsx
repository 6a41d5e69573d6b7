import { Col, Row, Typography } from 'antd';
import { StaffCard } from '@/features/auth/components/staff-card';
import { HealthCard } from '@/features/system/components/health-card';

export function DashboardRoute() {
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        概览
      </Typography.Title>
      <Row gutter={[16, 16]}>
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
