import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function AuditLogRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      操作日志
    </Typography.Title>
  );
}
