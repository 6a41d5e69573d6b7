import { isValidPhone, PHONE_FORMAT_MSG, PHONE_REQUIRED_MSG } from '@lm/shared/validators/phone';
import { Button, Checkbox, Input, Toast } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { CodeButton } from '@/components/code-button';
import { DEFAULT_AB_TEST_TYPE, NAVIGATION_DELAY_MS } from '@/config/constants';
import { useCountdown } from '@/hooks/use-countdown';
import { ApiError } from '@/lib/api-client';
import { getAdChannelCode } from '@/lib/channel';
import { saveSession } from '@/lib/session';
import { useLogin } from '../api/login';
import { type SendVerifyCodeData, useSendVerifyCode } from '../api/send-verify-code';
import styles from './login-form.module.css';

const CODE_RESEND_SECONDS = 60;
const LOGIN_TOAST_MS = 1000;

interface LoginFormProps {
  submitText?: string;
  defaultPhone?: string;
}

const digitsOnly = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

function toastUnexpected(error: unknown) {
  // ApiErrors were already shown by the API client (or are silent cancellations).
  if (error instanceof ApiError) return;
  Toast.show({ content: error instanceof Error ? error.message : '未知错误，请稍后重试', duration: 3000 });
}

/** Phone + SMS code login (spec §2 /login, §5, §7). */
export function LoginForm({ submitText = '登录', defaultPhone = '' }: LoginFormProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [phone, setPhone] = useState(() => digitsOnly(defaultPhone, 11));
  const [code, setCode] = useState('');
  const [agreed, setAgreed] = useState(false);
  const countdown = useCountdown();
  const sendCode = useSendVerifyCode();
  const login = useLogin();
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const checkPhone = (): boolean => {
    if (!phone) {
      Toast.show(PHONE_REQUIRED_MSG);
      return false;
    }
    if (!isValidPhone(phone)) {
      Toast.show(PHONE_FORMAT_MSG);
      return false;
    }
    return true;
  };

  const onSendCode = () => {
    if (countdown.running || sendCode.isPending || !checkPhone()) return;
    sendCode.mutate(phone, {
      onSuccess: (data) => {
        Toast.show('验证码已发送');
        countdown.start(data.retryAfter > 0 ? data.retryAfter : CODE_RESEND_SECONDS);
      },
      onError: (error) => {
        // 429: the API client showed the message ("…秒后再试"); follow the server's wait.
        if (error instanceof ApiError && error.code === 429) {
          const retryAfter = (error.data as Partial<SendVerifyCodeData> | null)?.retryAfter;
          if (typeof retryAfter === 'number' && retryAfter > 0) countdown.start(retryAfter);
          return;
        }
        toastUnexpected(error);
      },
    });
  };

  const onSubmit = () => {
    if (login.isPending || !checkPhone()) return;
    if (!code.trim()) {
      Toast.show('请输入验证码');
      return;
    }
    if (!agreed) {
      Toast.show('请先阅读并同意协议');
      return;
    }
    login.mutate(
      {
        phone,
        code: code.trim(),
        adChannelCode: getAdChannelCode(location.search),
        abTestType: DEFAULT_AB_TEST_TYPE,
        isFormReq: location.pathname.includes('getQuota'),
      },
      {
        onSuccess: (data) => {
          saveSession({ token: data.token, uid: data.loginUser.uid, phone });
          Toast.show({ content: '登录成功', duration: LOGIN_TOAST_MS });
          // TODO(post-login routing): the spec §4 decision (auto form, link type, form config, apply
          // status, re-match…) arrives with a later issue. Until then every login lands on /my.
          redirectTimer.current = setTimeout(() => {
            Toast.clear();
            navigate('/my', { replace: true });
          }, NAVIGATION_DELAY_MS);
        },
        onError: toastUnexpected,
      },
    );
  };

  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <div className={styles.field}>
        <Input
          type="tel"
          inputMode="numeric"
          autoComplete="tel"
          placeholder="请输入手机号"
          aria-label="手机号"
          maxLength={11}
          clearable
          value={phone}
          onChange={(value) => setPhone(digitsOnly(value, 11))}
        />
      </div>
      <div className={styles.field}>
        <Input
          type="tel"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="请输入验证码"
          aria-label="验证码"
          maxLength={6}
          value={code}
          onChange={(value) => setCode(digitsOnly(value, 6))}
        />
        <CodeButton seconds={countdown.seconds} loading={sendCode.isPending} onClick={onSendCode} />
      </div>
      <Button block type="submit" color="primary" shape="rounded" size="large" loading={login.isPending}>
        {submitText}
      </Button>
      <div className={styles.agreement}>
        <Checkbox checked={agreed} onChange={setAgreed} style={{ '--icon-size': 'calc(14 * var(--px))' }}>
          我已阅读并同意
        </Checkbox>
        <Link to="/register-agreement">《注册协议》</Link>
        <Link to="/privacy-agreement">《隐私政策》</Link>
      </div>
    </form>
  );
}
