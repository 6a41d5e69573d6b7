import type { StaffListItem } from '@lm/shared/schemas/auth';
import { Alert, Form, Input, Modal, Radio, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useResetStaffPassword } from '../api/reset-staff-password';

interface ResetPasswordModalProps {
  member: StaffListItem | null;
  onClose: () => void;
}

/** 重置密码: generate one (shown once) or set one; the account is logged out everywhere. */
export function ResetPasswordModal({ member, onClose }: ResetPasswordModalProps) {
  const [mode, setMode] = useState<'generate' | 'set'>('generate');
  const [form] = Form.useForm<{ password: string }>();
  const [done, setDone] = useState<{ password: string | null } | null>(null);
  const reset = useResetStaffPassword({ onSuccess: (data) => setDone(data) });

  useEffect(() => {
    if (member) {
      setMode('generate');
      setDone(null);
      form.resetFields();
    }
  }, [member, form]);

  const submit = async () => {
    if (!member) return;
    if (mode === 'generate') return reset.mutate({ id: member.id });
    const { password } = await form.validateFields();
    reset.mutate({ id: member.id, password });
  };

  return (
    <Modal
      open={member !== null}
      title={`重置密码：${member?.name ?? ''}`}
      okText={done ? '完成' : '重置'}
      cancelText="取消"
      onOk={done ? onClose : submit}
      onCancel={onClose}
      confirmLoading={reset.isPending}
      cancelButtonProps={{ style: done ? { display: 'none' } : {} }}
      destroyOnHidden
    >
      {done ? (
        done.password ? (
          <Alert
            type="success"
            showIcon
            message="新密码已生成，只显示这一次"
            description={
              <Typography.Paragraph copyable={{ text: done.password }} style={{ marginBottom: 0 }}>
                <Typography.Text code style={{ fontSize: 16 }}>
                  {done.password}
                </Typography.Text>
              </Typography.Paragraph>
            }
          />
        ) : (
          <Alert type="success" showIcon message="密码已更新" />
        )
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            重置后该账号在所有设备上的登录都会失效，需要用新密码或短信验证码重新登录。
          </Typography.Paragraph>
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)} style={{ marginBottom: 16 }}>
            <Radio value="generate">自动生成随机密码</Radio>
            <Radio value="set">手动设置</Radio>
          </Radio.Group>
          {mode === 'set' && (
            <Form form={form} layout="vertical" requiredMark={false}>
              <Form.Item
                label="新密码"
                name="password"
                rules={[
                  { required: true, message: '请输入新密码' },
                  { min: 10, message: '密码至少10个字符' },
                  { max: 128, message: '密码最长128个字符' },
                ]}
              >
                <Input.Password autoComplete="new-password" placeholder="至少10个字符" />
              </Form.Item>
            </Form>
          )}
        </>
      )}
    </Modal>
  );
}
