import { Alert, Breadcrumb, Button, Skeleton, Space, Tag, Typography } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import { useChannel } from '@/features/channels/api/get-channel';
import { ChannelForm } from '@/features/channels/components/channel-form';

/** 编辑渠道 (/channels/:id, /channels/new): the form with a live phone preview of the unsaved values. */
export function ChannelEditRoute() {
  const { id: param } = useParams();
  const navigate = useNavigate();
  const me = useMe();
  const canEdit = me.data?.role === 'admin' || me.data?.role === 'operator';
  const isNew = param === 'new';
  const id = !isNew && param && /^\d+$/.test(param) ? Number(param) : null;
  const channel = useChannel(id);

  const title = isNew ? '新建渠道' : channel.data ? `编辑渠道 ${channel.data.adChannelCode}` : '编辑渠道';
  let body: React.ReactNode;
  if (!isNew && id === null) {
    body = <Alert type="error" showIcon message="渠道编号无效" />;
  } else if (isNew) {
    body = me.isLoading ? (
      <Skeleton active />
    ) : (
      <ChannelForm canEdit={canEdit} onCreated={(c) => navigate(`/channels/${c.id}`, { replace: true })} />
    );
  } else if (channel.isLoading || me.isLoading) {
    body = <Skeleton active paragraph={{ rows: 12 }} />;
  } else if (channel.isError || !channel.data) {
    body = (
      <Alert
        type="error"
        showIcon
        message="渠道加载失败"
        description={channel.error?.message}
        action={<Button onClick={() => void channel.refetch()}>重试</Button>}
      />
    );
  } else {
    // Remount on save so the form starts from what the server stored.
    body = <ChannelForm key={channel.data.updatedAt} detail={channel.data} canEdit={canEdit} />;
  }

  return (
    <>
      <Breadcrumb
        style={{ marginBottom: 8 }}
        items={[{ title: <Link to="/channels">渠道管理</Link> }, { title: isNew ? '新建' : '编辑' }]}
      />
      <Space align="baseline">
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {title}
        </Typography.Title>
        {channel.data && (
          <Tag color={channel.data.channelStatus === 1 ? 'success' : 'default'}>
            {channel.data.channelStatus === 1 ? '启用中' : '已停用'}
          </Tag>
        )}
      </Space>
      {body}
    </>
  );
}
