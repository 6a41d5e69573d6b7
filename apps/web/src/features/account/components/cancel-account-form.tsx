import { maskPhone } from '@lm/shared/mask';
import { isValidPhone } from '@lm/shared/validators/phone';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Input, Toast } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { CodeButton } from '@/components/code-button';
import { NAVIGATION_DELAY_MS } from '@/config/constants';
import { useCountdown } from '@/hooks/use-countdown';
import { ApiError } from '@/lib/api-client';
import { clearSession, getStoredPhone } from '@/lib/session';
import { useCancelAccount } from '../api/cancel-account';
import { type SendCancellationCodeData, useSendCancellationCode } from '../api/send-cancellation-code';
import styles from './account.module.css';

const CODE_RESEND_SECONDS = 60;

export function CancelAccountForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const countdown = useCountdown();
  const sendCode = useSendCancellationCode();
  const cancelAccount = useCancelAccount();
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const phone = getStoredPhone();

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const onSendCode = () => {
    if (countdown.running || sendCode.isPending) return;
    sendCode.mutate(undefined, {
      onSuccess: (data) => {
        Toast.show('验证码已发送');
        countdown.start(data?.retryAfter && data.retryAfter > 0 ? data.retryAfter : CODE_RESEND_SECONDS);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 429) {
          const retryAfter = (error.data as SendCancellationCodeData | null)?.retryAfter;
          if (typeof retryAfter === 'number' && retryAfter > 0) countdown.start(retryAfter);
        }
      },
    });
  };

  const onSubmit = async () => {
    if (cancelAccount.isPending) return;
    if (!code.trim()) {
      Toast.show('请输入验证码');
      return;
    }
    const confirmed = await Dialog.confirm({
      title: '确认注销账户？',
      content: '注销后您的账户信息将被清除且无法恢复，确定继续吗？',
      confirmText: '确认注销',
      cancelText: '再想想',
    });
    if (!confirmed) return;
    cancelAccount.mutate(
      { code: code.trim() },
      {
        onSuccess: () => {
          clearSession();
          queryClient.clear();
          Toast.show('账户已注销');
          redirectTimer.current = setTimeout(() => {
            Toast.clear();
            navigate('/', { replace: true });
          }, NAVIGATION_DELAY_MS);
        },
      },
    );
  };

  return (
    <div className={styles.cancel}>
      <section className={styles.notice}>
        <h2>注销须知</h2>
        <ul>
          <li>注销后将无法使用当前手机号登录本账户；</li>
          <li>账户资料、申请记录等信息将被清除且无法恢复；</li>
          <li>已提交给合作机构的申请，请联系对应机构处理。</li>
        </ul>
      </section>

      <section className={styles.verify}>
        <p className={styles.verifyHint}>
          验证码将发送至 {phone && isValidPhone(phone) ? maskPhone(phone) : '当前登录手机号'}
        </p>
        <div className={styles.field}>
          <Input
            type="tel"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="请输入验证码"
            aria-label="验证码"
            maxLength={6}
            value={code}
            onChange={(value) => setCode(value.replace(/\D/g, '').slice(0, 6))}
          />
          <CodeButton seconds={countdown.seconds} loading={sendCode.isPending} onClick={onSendCode} />
        </div>
      </section>

      <div className={styles.actions}>
        <Button
          block
          color="danger"
          shape="rounded"
          size="large"
          loading={cancelAccount.isPending}
          onClick={onSubmit}
        >
          确认注销
        </Button>
      </div>
    </div>
  );
}
