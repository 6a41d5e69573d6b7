import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function StaffRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      账号管理
    </Typography.Title>
  );
}
