import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function LeadDetailRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      用户详情
    </Typography.Title>
  );
}
