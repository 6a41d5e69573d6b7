import { Alert, Button, Form, Input, Modal, Popconfirm, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { notifySuccess } from '@/lib/notify';
import { useDiscardLead } from '../api/discard-lead';
import { useRetryLead } from '../api/retry-lead';

export interface LeadActionsProps {
  lead: { id: number; status: string; retryable?: boolean };
  /** admin and operator. */
  canChange: boolean;
  size?: 'small' | 'middle';
}

/** Retry (back to the queue) or discard (with a reason) a dead letter. Nothing for other states. */
export function LeadActions({ lead, canChange, size = 'small' }: LeadActionsProps) {
  const retry = useRetryLead();
  const discard = useDiscardLead();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();
  if (lead.status !== 'dead') return null;
  const noRight = canChange ? undefined : '仅管理员和运营可以操作';
  const cannotRetry = lead.retryable === false ? '用户已撤回授权或已注销，不能再发送' : undefined;
  return (
    <Space>
      <Popconfirm
        title={`重新发送线索 #${lead.id}？`}
        description="线索回到发送队列，发送次数清零，立即重新发送。"
        okText="重新发送"
        cancelText="取消"
        disabled={!canChange || Boolean(cannotRetry)}
        onConfirm={() =>
          retry.mutateAsync({ id: lead.id }).then(() => notifySuccess(`线索 #${lead.id} 已重新排队`))
        }
      >
        <Tooltip title={noRight ?? cannotRetry}>
          <Button
            size={size}
            type="link"
            disabled={!canChange || Boolean(cannotRetry)}
            loading={retry.isPending}
          >
            重新发送
          </Button>
        </Tooltip>
      </Popconfirm>
      <Tooltip title={noRight}>
        <Button size={size} type="link" danger disabled={!canChange} onClick={() => setOpen(true)}>
          放弃
        </Button>
      </Tooltip>
      <Modal
        title={`放弃线索 #${lead.id}`}
        open={open}
        okText="确认放弃"
        okButtonProps={{ danger: true }}
        cancelText="取消"
        confirmLoading={discard.isPending}
        destroyOnHidden
        onCancel={() => {
          setOpen(false);
          discard.reset();
        }}
        onOk={() => form.submit()}
      >
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="放弃后这条线索不会再发送给机构，且不能恢复。操作会记录到操作日志。"
        />
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          onFinish={({ reason }) =>
            discard.mutateAsync({ id: lead.id, reason: reason.trim() }).then(() => {
              setOpen(false);
              notifySuccess(`线索 #${lead.id} 已放弃`);
            })
          }
        >
          <Form.Item
            name="reason"
            label="放弃原因"
            rules={[
              { required: true, whitespace: true, message: '请填写放弃原因' },
              { min: 4, message: '请填写放弃原因（至少 4 个字）' },
              { max: 200, message: '原因最多 200 字' },
            ]}
          >
            <Input.TextArea
              rows={3}
              maxLength={200}
              showCount
              placeholder="例如：机构已停止合作，确认不再接收"
            />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
