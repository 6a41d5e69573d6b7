import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function PartnersRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      合作机构
    </Typography.Title>
  );
}
