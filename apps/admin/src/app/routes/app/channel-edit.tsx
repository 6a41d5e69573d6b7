import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function ChannelEditRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      编辑渠道
    </Typography.Title>
  );
}
