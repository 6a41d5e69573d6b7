import { Typography } from 'antd';

/** Issue 7 console page (being built). */
export function RuleTesterRoute() {
  return (
    <Typography.Title level={4} style={{ marginTop: 0 }}>
      规则测试
    </Typography.Title>
  );
}
