import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function LeadsRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      用户与线索
    </Typography.Title>
  );
}
