import type { StaffListItem } from '@lm/shared/schemas/auth';
import { PHONE_FORMAT_MSG, PHONE_PATTERN, PHONE_REQUIRED_MSG } from '@lm/shared/validators/phone';
import { App, Form, Input, Modal, Radio, Select, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useCreateStaff } from '../api/create-staff';
import { useChannelOptions } from '../api/get-channel-options';
import type { StaffRole } from '../api/get-staff';
import { useUpdateStaff } from '../api/update-staff';
import { STAFF_ROLE_HINTS, STAFF_ROLE_LABELS } from './roles';

interface Values {
  phone: string;
  name: string;
  role: StaffRole;
  channelCodes: string[];
  password?: string;
}

interface StaffFormModalProps {
  open: boolean;
  /** Editing this account; null to create one. */
  editing: StaffListItem | null;
  /** The logged-in admin (cannot change its own role). */
  selfId: number | undefined;
  onClose: () => void;
}

const ROLES: StaffRole[] = ['admin', 'operator', 'viewer', 'channel_partner'];

/** 新建 / 编辑账号: role, channels for a channel partner, an optional password (SMS login otherwise). */
export function StaffFormModal({ open, editing, selfId, onClose }: StaffFormModalProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const role = Form.useWatch('role', form);
  const channels = useChannelOptions();
  const create = useCreateStaff({
    onSuccess: () => {
      void message.success('账号已创建');
      onClose();
    },
  });
  const update = useUpdateStaff({
    onSuccess: () => {
      void message.success('账号已保存');
      onClose();
    },
  });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({ name: editing.name, role: editing.role, channelCodes: editing.channelCodes });
  }, [open, editing, form]);

  const onFinish = (v: Values) => {
    const channelCodes = v.role === 'channel_partner' ? v.channelCodes : [];
    if (editing) update.mutate({ id: editing.id, name: v.name.trim(), role: v.role, channelCodes });
    else
      create.mutate({
        phone: v.phone.trim(),
        name: v.name.trim(),
        role: v.role,
        channelCodes,
        password: v.password || undefined,
      });
  };

  return (
    <Modal
      open={open}
      title={editing ? `编辑账号：${editing.name}` : '新建账号'}
      okText={editing ? '保存' : '创建'}
      cancelText="取消"
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={create.isPending || update.isPending}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ role: 'operator', channelCodes: [] }}
        onFinish={onFinish}
      >
        {editing ? (
          <Form.Item label="手机号">
            <Typography.Text>{editing.mobile}</Typography.Text>
          </Form.Item>
        ) : (
          <Form.Item
            label="手机号"
            name="phone"
            rules={[
              { required: true, message: PHONE_REQUIRED_MSG },
              { pattern: PHONE_PATTERN, message: PHONE_FORMAT_MSG },
            ]}
          >
            <Input placeholder="登录用的手机号" maxLength={11} inputMode="numeric" />
          </Form.Item>
        )}
        <Form.Item
          label="姓名"
          name="name"
          rules={[{ required: true, whitespace: true, message: '请输入姓名' }]}
        >
          <Input placeholder="姓名或合作方名称" maxLength={40} />
        </Form.Item>
        <Form.Item label="角色" name="role" rules={[{ required: true, message: '请选择角色' }]}>
          <Radio.Group disabled={editing !== null && editing.id === selfId}>
            <Space direction="vertical">
              {ROLES.map((r) => (
                <Radio key={r} value={r}>
                  {STAFF_ROLE_LABELS[r]}
                  <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                    {STAFF_ROLE_HINTS[r]}
                  </Typography.Text>
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        {role === 'channel_partner' && (
          <Form.Item
            label="可查看的渠道"
            name="channelCodes"
            rules={[{ required: true, type: 'array', min: 1, message: '渠道合作方账号至少需要一个渠道' }]}
          >
            <Select
              mode="multiple"
              showSearch
              loading={channels.isPending}
              placeholder="选择渠道"
              optionFilterProp="label"
              options={(channels.data ?? []).map((c) => ({
                value: c.adChannelCode,
                label: `${c.name}（${c.adChannelCode}）`,
              }))}
            />
          </Form.Item>
        )}
        {!editing && (
          <Form.Item
            label="初始密码（可选）"
            name="password"
            extra="不填则只能用短信验证码登录；之后可随时重置密码。"
            rules={[
              { min: 10, message: '密码至少10个字符' },
              { max: 128, message: '密码最长128个字符' },
            ]}
          >
            <Input.Password placeholder="至少10个字符" autoComplete="new-password" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
