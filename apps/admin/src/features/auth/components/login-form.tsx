import { useCountdown } from '@lm/shared/client/use-countdown';
import { PHONE_FORMAT_MSG, PHONE_PATTERN, PHONE_REQUIRED_MSG } from '@lm/shared/validators/phone';
import { App, Button, Form, type FormRule, Input, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { type StaffLoginData, useStaffLogin } from '../api/login';
import { type SendLoginCodeData, useSendLoginCode } from '../api/send-login-code';

const CODE_RESEND_SECONDS = 60;

const phoneRules: FormRule[] = [
  { required: true, message: PHONE_REQUIRED_MSG },
  { pattern: PHONE_PATTERN, message: PHONE_FORMAT_MSG },
];

interface PasswordValues {
  phone: string;
  password: string;
}

interface CodeValues {
  phone: string;
  code: string;
}

interface LoginFormProps {
  onSuccess: (data: StaffLoginData) => void;
}

/**
 * Staff login: phone + password, or phone + SMS code. Server errors (1000 wrong name or password,
 * 1007 account disabled, 429 too many attempts) are shown by the API client with the server's message.
 */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const { message } = App.useApp();
  const [tab, setTab] = useState<'password' | 'code'>('password');
  const [codeForm] = Form.useForm<CodeValues>();
  const login = useStaffLogin({ onSuccess });
  // Under pressure the server asks for a challenge (1008, ADR 055): solved here before the code is sent.
  const [verifying, setVerifying] = useState(false);
  const sendCode = useSendLoginCode(setVerifying);
  const countdown = useCountdown();

  const onSendCode = async () => {
    if (countdown.running || sendCode.isPending) return;
    let phone: string;
    try {
      ({ phone } = await codeForm.validateFields(['phone']));
    } catch {
      return;
    }
    sendCode.mutate(phone, {
      onSuccess: (data) => {
        void message.success('验证码已发送');
        countdown.start(data?.retryAfter && data.retryAfter > 0 ? data.retryAfter : CODE_RESEND_SECONDS);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 429) {
          const retryAfter = (error.data as SendLoginCodeData | null)?.retryAfter;
          if (typeof retryAfter === 'number' && retryAfter > 0) countdown.start(retryAfter);
        }
      },
    });
  };

  const passwordForm = (
    <Form<PasswordValues>
      layout="vertical"
      size="large"
      requiredMark={false}
      onFinish={(values) => login.mutate({ phone: values.phone.trim(), password: values.password })}
    >
      <Form.Item label="手机号" name="phone" rules={phoneRules}>
        <Input placeholder="请输入手机号" maxLength={11} autoComplete="username" inputMode="numeric" />
      </Form.Item>
      <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入密码' }]}>
        <Input.Password placeholder="请输入密码" maxLength={128} autoComplete="current-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={login.isPending}>
        登录
      </Button>
    </Form>
  );

  const smsForm = (
    <Form<CodeValues>
      form={codeForm}
      layout="vertical"
      size="large"
      requiredMark={false}
      onFinish={(values) => login.mutate({ phone: values.phone.trim(), code: values.code.trim() })}
    >
      <Form.Item label="手机号" name="phone" rules={phoneRules}>
        <Input placeholder="请输入手机号" maxLength={11} autoComplete="username" inputMode="numeric" />
      </Form.Item>
      <Form.Item label="短信验证码" required>
        <Space.Compact block>
          <Form.Item
            name="code"
            noStyle
            rules={[
              { required: true, message: '请输入验证码' },
              { pattern: /^\d{6}$/, message: '验证码为6位数字' },
            ]}
          >
            <Input placeholder="6位验证码" maxLength={6} autoComplete="one-time-code" inputMode="numeric" />
          </Form.Item>
          <Button
            onClick={onSendCode}
            loading={sendCode.isPending}
            disabled={countdown.running}
            style={{ width: 136 }}
          >
            {countdown.running ? `${countdown.seconds}s后重新获取` : verifying ? '验证中…' : '获取验证码'}
          </Button>
        </Space.Compact>
        {verifying && (
          <Typography.Text type="secondary" role="status" style={{ display: 'block', marginTop: 8 }}>
            正在进行安全验证…
          </Typography.Text>
        )}
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={login.isPending}>
        登录
      </Button>
    </Form>
  );

  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => setTab(key as 'password' | 'code')}
      centered
      items={[
        { key: 'password', label: '密码登录', children: passwordForm },
        { key: 'code', label: '验证码登录', children: smsForm },
      ]}
    />
  );
}
