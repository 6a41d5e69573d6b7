import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function ChannelsRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      渠道管理
    </Typography.Title>
  );
}
