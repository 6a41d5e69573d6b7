import type { AdminReturnItem } from '@lm/shared/schemas/returns';
import { Alert, Button, Form, Input, Modal, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { notifySuccess } from '@/lib/notify';
import { useAcceptReturn } from '../api/accept-return';
import { useRejectReturn } from '../api/reject-return';

export interface ReviewReturnProps {
  item: AdminReturnItem;
  /** admin and operator. */
  canChange: boolean;
}

type Decision = 'accept' | 'reject';

const WORDS: Record<Decision, { title: string; ok: string; done: string; warning: string }> = {
  accept: {
    title: '接受退回',
    ok: '确认接受',
    done: '已接受退回，线索收入已冲减',
    warning: '接受后，这条线索已记的收入（及渠道分成）在账本中冲减，不能撤销。操作会记录到操作日志。',
  },
  reject: {
    title: '驳回退回',
    ok: '确认驳回',
    done: '已驳回退回',
    warning: '驳回后不冲减任何收入，机构也不能再次退回这条线索。操作会记录到操作日志。',
  },
};

/** Accept or reject a disputed return, with a note (for the audit log) in a confirm dialog. */
export function ReviewReturn({ item, canChange }: ReviewReturnProps) {
  const accept = useAcceptReturn();
  const reject = useRejectReturn();
  const [open, setOpen] = useState<Decision | null>(null);
  const [form] = Form.useForm<{ note: string }>();
  if (item.status !== 'disputed') return null;
  const noRight = canChange ? undefined : '仅管理员和运营可以审核';
  const mutation = open === 'reject' ? reject : accept;
  const words = open ? WORDS[open] : null;
  return (
    <Space>
      <Tooltip title={noRight}>
        <Button size="small" type="link" disabled={!canChange} onClick={() => setOpen('accept')}>
          接受
        </Button>
      </Tooltip>
      <Tooltip title={noRight}>
        <Button size="small" type="link" danger disabled={!canChange} onClick={() => setOpen('reject')}>
          驳回
        </Button>
      </Tooltip>
      <Modal
        title={words ? `${words.title} #${item.id}` : ''}
        open={open !== null}
        okText={words?.ok}
        okButtonProps={{ danger: open === 'reject' }}
        cancelText="取消"
        confirmLoading={mutation.isPending}
        destroyOnHidden
        onCancel={() => {
          setOpen(null);
          mutation.reset();
        }}
        onOk={() => form.submit()}
      >
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={words?.warning} />
        <p>
          {item.partnerName} 退回线索 {item.leadKey}：{item.reasonLabel}
          {item.reasonText ? `（${item.reasonText}）` : ''}
        </p>
        {item.disputeReason && <p>待审核原因：{item.disputeReason}</p>}
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          onFinish={({ note }) =>
            mutation.mutateAsync({ id: item.id, note: note.trim() }).then(() => {
              const done = words?.done ?? '';
              setOpen(null);
              notifySuccess(done);
            })
          }
        >
          <Form.Item
            name="note"
            label="审核说明"
            rules={[
              { required: true, whitespace: true, message: '请填写审核说明' },
              { min: 2, message: '请填写审核说明（至少 2 个字）' },
              { max: 200, message: '审核说明最多 200 字' },
            ]}
          >
            <Input.TextArea rows={3} maxLength={200} showCount placeholder="例如：已电话核实，客户未申请" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
