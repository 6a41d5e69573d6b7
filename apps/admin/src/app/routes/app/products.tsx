import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function ProductsRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      产品管理
    </Typography.Title>
  );
}
