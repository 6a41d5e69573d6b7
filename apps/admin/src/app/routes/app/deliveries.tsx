import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function DeliveriesRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      线索发送
    </Typography.Title>
  );
}
