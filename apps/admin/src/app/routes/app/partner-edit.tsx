import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function PartnerEditRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      编辑机构
    </Typography.Title>
  );
}
