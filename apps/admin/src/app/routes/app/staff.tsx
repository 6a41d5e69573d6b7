import { Alert, Typography } from 'antd';
import { useMe } from '@/features/auth/api/get-me';
import { StaffTable } from '@/features/staff/components/staff-table';

/** 账号管理 (admin only; the server refuses everyone else with 403). */
export function StaffRoute() {
  const me = useMe();
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        账号管理
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        后台员工账号与渠道合作方只读账号。每次新建、修改、禁用和重置密码都会记入操作日志。
      </Typography.Paragraph>
      {me.data && me.data.role !== 'admin' ? (
        <Alert type="warning" showIcon message="只有管理员可以管理账号" />
      ) : (
        <StaffTable selfId={me.data?.id} />
      )}
    </>
  );
}
