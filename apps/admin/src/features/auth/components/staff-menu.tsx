import { Button, Space, Tag, Typography } from 'antd';
import { ROLE_LABELS } from '@/config/constants';
import { useMe } from '../api/get-me';
import { useStaffLogout } from '../api/logout';

/** Header corner: who is logged in, and 退出. */
export function StaffMenu({ onLoggedOut }: { onLoggedOut: () => void }) {
  const me = useMe();
  const logout = useStaffLogout({ onSettled: onLoggedOut });
  return (
    <Space size="middle">
      {me.data && (
        <Space size={4}>
          <Typography.Text strong>{me.data.name}</Typography.Text>
          <Tag color="blue">{ROLE_LABELS[me.data.role] ?? me.data.role}</Tag>
        </Space>
      )}
      <Button onClick={() => logout.mutate()} loading={logout.isPending}>
        退出
      </Button>
    </Space>
  );
}
