import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function ProductEditRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      编辑产品
    </Typography.Title>
  );
}
