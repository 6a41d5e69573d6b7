import { formatShanghai } from '@lm/shared/time';
import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { notifySuccess } from '@/lib/notify';

export interface SecretModalProps {
  /** The secret to show once; null closes the modal. */
  secret: string | null;
  previousSecretValidUntil: string | null;
  onClose: () => void;
}

const formatTime = (iso: string) => formatShanghai(iso, 'second');

/** Shows a new signing secret once, with a copy button; it cannot be retrieved again. */
export function SecretModal({ secret, previousSecretValidUntil, onClose }: SecretModalProps) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      notifySuccess('已复制到剪贴板');
    } catch {
      setCopied(false);
    }
  };
  return (
    <Modal
      open={secret !== null}
      title="新的签名密钥"
      maskClosable={false}
      closable={false}
      onCancel={onClose}
      afterClose={() => setCopied(false)}
      footer={
        <Button type="primary" onClick={onClose}>
          {copied ? '已保存，关闭' : '我已保存，关闭'}
        </Button>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert
          type="warning"
          showIcon
          message="密钥只显示这一次"
          description="关闭后无法再次查看，请立即复制并通过安全渠道交给机构技术人员。"
        />
        <Space.Compact style={{ width: '100%' }}>
          <Input
            readOnly
            value={secret ?? ''}
            aria-label="新的签名密钥"
            style={{ fontFamily: 'monospace' }}
          />
          <Button onClick={copy}>复制</Button>
        </Space.Compact>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          线索推送立即使用新密钥签名。
          {previousSecretValidUntil
            ? `机构回调在 ${formatTime(previousSecretValidUntil)} 之前仍可使用旧密钥签名，之后只接受新密钥。`
            : '机构回调只接受新密钥签名。'}
        </Typography.Paragraph>
      </Space>
    </Modal>
  );
}
