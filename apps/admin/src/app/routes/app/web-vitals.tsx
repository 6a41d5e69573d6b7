import { Typography } from 'antd';

/** Issue 8 console page (being built). */
export function WebVitalsRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      性能监控
    </Typography.Title>
  );
}
