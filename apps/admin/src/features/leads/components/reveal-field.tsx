import type { AdminRevealData, RevealField } from '@lm/shared/schemas/admin-leads';
import { Alert, Button, Form, Input, Modal, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useRevealField } from '../api/reveal-field';
import { RELATIONSHIP_TEXT, REVEAL_FIELD_TEXT } from '../format';

export interface RevealableProps {
  userId: number;
  field: RevealField;
  /** What lists show (e.g. "张*"); null when the person never gave it. */
  masked: string | null;
  /** admin and operator may reveal; others see the masked value only. */
  canReveal: boolean;
}

function RevealedValue({ data }: { data: AdminRevealData }) {
  if (data.contacts) {
    return (
      <Space direction="vertical" size={0}>
        {data.contacts.map((c, i) => (
          <span key={`${c.phone}-${i}`}>
            {RELATIONSHIP_TEXT[c.relationship] ?? c.relationship}：{c.name} {c.phone}
          </span>
        ))}
      </Space>
    );
  }
  return <Typography.Text copyable>{data.value}</Typography.Text>;
}

/**
 * A masked value with a 查看 button: the staff member gives a reason (audit-logged), then sees the
 * clear value on this page view only (kept in component state, gone on reload or navigation).
 */
export function Revealable({ userId, field, masked, canReveal }: RevealableProps) {
  const [open, setOpen] = useState(false);
  const [revealed, setRevealed] = useState<AdminRevealData | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const reveal = useRevealField();
  const label = REVEAL_FIELD_TEXT[field];

  if (revealed) {
    return (
      <Space align="start" wrap>
        <RevealedValue data={revealed} />
        <Tag color="orange">明文 · 仅本次页面可见</Tag>
        <Button size="small" type="link" onClick={() => setRevealed(null)}>
          隐藏
        </Button>
      </Space>
    );
  }
  if (masked === null) return <Typography.Text type="secondary">未填写</Typography.Text>;
  return (
    <Space>
      <span>{masked}</span>
      <Tooltip title={canReveal ? undefined : '仅管理员和运营可以查看明文'}>
        <Button
          size="small"
          type="link"
          disabled={!canReveal}
          onClick={() => setOpen(true)}
          aria-label={`查看${label}`}
        >
          查看
        </Button>
      </Tooltip>
      <Modal
        title={`查看${label}明文`}
        open={open}
        okText="确认查看"
        cancelText="取消"
        confirmLoading={reveal.isPending}
        destroyOnHidden
        onCancel={() => {
          setOpen(false);
          reveal.reset();
        }}
        onOk={() => form.submit()}
      >
        <Typography.Paragraph type="secondary">
          查看个人信息明文会记录到操作日志（查看人、字段、原因和时间）。请只在处理投诉、核实身份等确有必要时查看。
        </Typography.Paragraph>
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          onFinish={({ reason }) =>
            reveal.mutateAsync({ userId, field, reason: reason.trim() }).then((data) => {
              setRevealed(data);
              setOpen(false);
              reveal.reset();
            })
          }
        >
          <Form.Item
            name="reason"
            label="查看原因"
            rules={[
              { required: true, whitespace: true, message: '请填写查看原因' },
              { min: 4, message: '请填写查看原因（至少 4 个字）' },
              { max: 200, message: '原因最多 200 字' },
            ]}
          >
            <Input.TextArea
              rows={3}
              maxLength={200}
              showCount
              placeholder="例如：用户来电投诉，核实身份（工单 #1024）"
              autoFocus
            />
          </Form.Item>
        </Form>
        {reveal.isError ? <Alert type="error" showIcon message={reveal.error.message} /> : null}
      </Modal>
    </Space>
  );
}
