import { Alert, Skeleton, Tag } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { EditPageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { useMe } from '@/features/auth/api/get-me';
import { useCanEdit } from '@/features/auth/use-can-edit';
import { ChannelCostsCard } from '@/features/channel-costs/components/channel-costs-card';
import { useChannel } from '@/features/channels/api/get-channel';
import { ChannelForm } from '@/features/channels/components/channel-form';
import { ConversionReports } from '@/features/channels/components/conversion-reports';
import { ConversionSettings } from '@/features/channels/components/conversion-settings';

/** 编辑渠道 (/channels/:id, /channels/new): the form with a live phone preview of the unsaved values. */
export function ChannelEditRoute() {
  const { id: param } = useParams();
  const navigate = useNavigate();
  const me = useMe();
  const canEdit = useCanEdit();
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
    body = <QueryError message="渠道加载失败" error={channel.error} onRetry={() => void channel.refetch()} />;
  } else {
    // Remount on save so the form starts from what the server stored.
    body = (
      <>
        <ChannelForm key={channel.data.updatedAt} detail={channel.data} canEdit={canEdit} />
        <ConversionSettings channelId={channel.data.id} canEdit={canEdit} />
        <ConversionReports channelId={channel.data.id} canReplay={canEdit} />
        <ChannelCostsCard channelId={channel.data.id} isAdmin={me.data?.role === 'admin'} />
      </>
    );
  }

  return (
    <>
      <EditPageHeader
        list={{ to: '/channels', label: '渠道管理' }}
        crumb={isNew ? '新建' : '编辑'}
        title={title}
        extra={
          channel.data ? (
            <Tag color={channel.data.channelStatus === 1 ? 'success' : 'default'}>
              {channel.data.channelStatus === 1 ? '启用中' : '已停用'}
            </Tag>
          ) : null
        }
      />
      {body}
    </>
  );
}
