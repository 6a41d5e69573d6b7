import type { ChannelListItem } from '@lm/shared/schemas/admin-channels';
import { Popconfirm, Switch, Tooltip } from 'antd';
import { notifySuccess } from '@/lib/notify';
import { useSetChannelStatus } from '../api/set-channel-status';

/** A channel's 启用/停用 switch in the list, confirmed first (who may not edit sees it disabled). */
export function StatusSwitch({ item, canEdit }: { item: ChannelListItem; canEdit: boolean }) {
  const mutation = useSetChannelStatus();
  const next = item.channelStatus === 1 ? 0 : 1;
  return (
    <Popconfirm
      title={next === 0 ? `停用渠道 ${item.adChannelCode}？` : `启用渠道 ${item.adChannelCode}？`}
      description={
        next === 0
          ? '停用后，该渠道链接的访客会被重新加载到原地址，无法正常进入申请流程。'
          : '启用后，该渠道链接立即恢复正常。'
      }
      okText={next === 0 ? '停用' : '启用'}
      okButtonProps={{ danger: next === 0 }}
      cancelText="取消"
      disabled={!canEdit}
      onConfirm={() =>
        mutation
          .mutateAsync({ id: item.id, channelStatus: next })
          .then(() => notifySuccess(next === 0 ? '渠道已停用' : '渠道已启用'))
      }
    >
      <Tooltip title={canEdit ? undefined : '仅管理员和运营可以操作'}>
        <Switch
          aria-label={`渠道 ${item.adChannelCode} 状态`}
          checked={item.channelStatus === 1}
          checkedChildren="启用"
          unCheckedChildren="停用"
          loading={mutation.isPending}
          disabled={!canEdit}
        />
      </Tooltip>
    </Popconfirm>
  );
}
