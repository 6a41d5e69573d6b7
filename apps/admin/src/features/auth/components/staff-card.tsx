import { Alert, Card, Descriptions, Skeleton, Tag } from 'antd';
import { ROLE_LABELS } from '@/config/constants';
import { useMe } from '../api/get-me';

export function StaffCard() {
  const me = useMe();
  return (
    <Card title="当前账号">
      {me.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : me.data ? (
        <Descriptions column={{ xs: 1, sm: 2 }}>
          <Descriptions.Item label="姓名">{me.data.name}</Descriptions.Item>
          <Descriptions.Item label="角色">
            <Tag color="blue">{ROLE_LABELS[me.data.role] ?? me.data.role}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label="手机号">{me.data.mobile}</Descriptions.Item>
          <Descriptions.Item label="员工编号">{me.data.id}</Descriptions.Item>
        </Descriptions>
      ) : (
        <Alert type="error" showIcon message="账号信息加载失败" description={me.error?.message} />
      )}
    </Card>
  );
}
