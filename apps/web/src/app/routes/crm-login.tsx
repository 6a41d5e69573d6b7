import { CHALLENGE_QUIET, withChallenge } from '@lm/shared/client/challenge';
import { knownDeviceStore } from '@lm/shared/client/known-device';
import { useCountdown } from '@lm/shared/client/use-countdown';
import type { StaffLoginData } from '@lm/shared/schemas/auth';
import { useMutation } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import Input from 'antd-mobile/es/components/input';
import { useState } from 'react';
import { CodeButton } from '@/components/code-button';
import { CodeInput } from '@/components/code-input';
import { api } from '@/lib/api-client';
import { phoneProblem, tapSendCode } from '@/lib/code-form';
import { waitAfterSendFailure } from '@/lib/send-code';
import { storage } from '@/lib/storage';
import { toast } from '@/lib/toast';
import styles from './crm-login.module.css';

/** The console's localStorage key for the staff token (apps/admin/src/config/constants.ts). */
const ADMIN_TOKEN_KEY = 'ADMIN_TOKEN';
const CODE_RESEND_SECONDS = 60;
/** The console's known device (apps/admin/src/config/constants.ts, ADR 055): the same browser, the same staff. */
const staffDevice = knownDeviceStore('ADMIN_KNOWN_DEVICE');

interface SendCodeData {
  /** Masked phone. */
  mobile: string;
  retryAfter: number;
  expiresIn: number;
}

/** POST /api/crm/admin/login/sendPhoneVerifyCode — an SMS code for a staff phone (unknown phones get no SMS). */
function sendStaffCode(
  input: { phone: string },
  onSolving?: (solving: boolean) => void,
): Promise<SendCodeData> {
  // With the known device (ADR 055); a 1008 challenge is solved here and the request sent again.
  return withChallenge(
    (altcha) =>
      api.post<SendCodeData>(
        '/api/crm/admin/login/sendPhoneVerifyCode',
        { ...input, ...(altcha ? { altcha } : {}) },
        { skipAuth: true, quiet: CHALLENGE_QUIET, headers: staffDevice.headers() },
      ),
    { ...(onSolving ? { onSolving } : {}), showError: (msg) => toast.show(msg) },
  );
}

/** POST /api/crm/admin/login — phone + SMS code, or phone + password. */
async function staffLogin(input: { phone: string; code: string } | { phone: string; password: string }) {
  const data = await api.post<StaffLoginData>('/api/crm/admin/login', input, {
    skipAuth: true,
    headers: staffDevice.headers(),
  });
  staffDevice.set(data.knownDevice);
  return data;
}

type Mode = 'code' | 'password';

const digitsOnly = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

/** `/crm-login`: staff sign-in with an SMS code (or a password), then the console at /admin/. */
export function CrmLoginRoute() {
  const [mode, setMode] = useState<Mode>('code');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const countdown = useCountdown();
  const [verifying, setVerifying] = useState(false);
  const sendCode = useMutation({
    mutationFn: (input: { phone: string }) => sendStaffCode(input, setVerifying),
  });
  const login = useMutation({ mutationFn: staffLogin });

  const checkPhone = (): boolean => {
    const problem = phoneProblem(phone);
    if (problem) toast.show(problem);
    return !problem;
  };

  const onSendCode = () => {
    if (!tapSendCode({ counting: countdown.running, sending: sendCode.isPending }, (m) => toast.show(m)))
      return;
    if (!checkPhone()) return;
    sendCode.mutate(
      { phone },
      {
        onSuccess: (data) => {
          toast.show(
            `验证码已发送至 ${data.mobile}，${Math.max(1, Math.round(data.expiresIn / 60))}分钟内有效`,
          );
          countdown.start(data.retryAfter > 0 ? data.retryAfter : CODE_RESEND_SECONDS);
        },
        // The API client showed the message; follow the server's wait after a rate limit.
        onError: (error) => countdown.start(waitAfterSendFailure(error)),
      },
    );
  };

  const submit = () => {
    if (login.isPending || !checkPhone()) return;
    if (mode === 'code' && !/^\d{6}$/.test(code)) return void toast.show('请输入6位短信验证码');
    if (mode === 'password' && !password) return void toast.show('请输入密码');
    login.mutate(mode === 'code' ? { phone, code } : { phone, password }, {
      onSuccess: (data) => {
        storage.set(ADMIN_TOKEN_KEY, data.token);
        toast.show({ content: `${data.staff.name}，欢迎回来`, duration: 1000 });
        window.location.assign('/admin/');
      },
    });
  };

  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <svg viewBox="0 0 48 48" className={styles.logo} aria-hidden="true" focusable="false">
          <rect width="48" height="48" rx="12" fill="rgba(255,255,255,.12)" />
          <circle cx="24" cy="19" r="7" fill="#fff" />
          <path d="M11 38c2-7 7-10 13-10s11 3 13 10" fill="#fff" />
        </svg>
        <h1>员工登录</h1>
        <p>CRM 工作台 · 仅限内部员工使用</p>
      </header>
      <form
        className={styles.card}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className={styles.modes} role="tablist" aria-label="登录方式">
          {(
            [
              ['code', '验证码登录'],
              ['password', '密码登录'],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              role="tab"
              aria-selected={mode === value}
              className={styles.mode}
              onClick={() => setMode(value)}
            >
              {label}
            </button>
          ))}
        </div>
        <div className={styles.field}>
          <label htmlFor="crm-phone">手机号</label>
          <Input
            id="crm-phone"
            type="tel"
            inputMode="numeric"
            autoComplete="username"
            placeholder="请输入员工手机号"
            maxLength={11}
            clearable
            value={phone}
            onChange={(v) => setPhone(digitsOnly(v, 11))}
          />
        </div>
        {mode === 'code' ? (
          <div className={styles.field}>
            <label htmlFor="crm-code">短信验证码</label>
            <div className={styles.codeRow}>
              <CodeInput id="crm-code" placeholder="请输入6位验证码" value={code} onChange={setCode} />
              <CodeButton
                seconds={countdown.seconds}
                loading={sendCode.isPending}
                {...(verifying ? { loadingText: '验证中…' } : {})}
                onClick={onSendCode}
              />
            </div>
          </div>
        ) : (
          <div className={styles.field}>
            <label htmlFor="crm-password">密码</label>
            <Input
              id="crm-password"
              type="password"
              autoComplete="current-password"
              placeholder="请输入密码"
              maxLength={128}
              value={password}
              onChange={setPassword}
            />
          </div>
        )}
        <Button block type="submit" color="primary" shape="rounded" size="large" loading={login.isPending}>
          登录
        </Button>
        <p className={styles.hint}>
          {mode === 'code'
            ? '验证码仅发送至已登记的员工手机号，请勿告知他人。'
            : '忘记密码请使用验证码登录或联系管理员重置。同一网络连续输错5次，将锁定该网络的密码登录15分钟。'}
        </p>
      </form>
    </main>
  );
}
