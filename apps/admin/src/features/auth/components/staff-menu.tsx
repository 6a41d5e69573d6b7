import { Button, Space, Tag, Typography } from 'antd';
import { ROLE_LABELS } from '@/config/constants';
import { useMe } from '../api/get-me';
import { useStaffLogout } from '../api/logout';

/** Header corner: who is logged in, and 退出; `compact` (a phone): the name only, no role tag. */
export function StaffMenu({ onLoggedOut, compact = false }: { onLoggedOut: () => void; compact?: boolean }) {
  const me = useMe();
  const logout = useStaffLogout({ onSettled: onLoggedOut });
  return (
    <Space size={compact ? 'small' : 'middle'}>
      {me.data && (
        <Space size={4}>
          <Typography.Text strong ellipsis style={{ maxWidth: compact ? 72 : 200, verticalAlign: 'middle' }}>
            {me.data.name}
          </Typography.Text>
          {compact ? null : <Tag color="blue">{ROLE_LABELS[me.data.role] ?? me.data.role}</Tag>}
        </Space>
      )}
      <Button onClick={() => logout.mutate()} loading={logout.isPending}>
        退出
      </Button>
    </Space>
  );
}
