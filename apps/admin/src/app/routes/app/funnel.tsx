import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function FunnelRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      转化漏斗
    </Typography.Title>
  );
}
