import { useCountdown } from '@lm/shared/client/use-countdown';
import { maskPhone } from '@lm/shared/mask';
import { isValidPhone } from '@lm/shared/validators/phone';
import { useQueryClient } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { Link } from 'react-router';
import { CodeButton } from '@/components/code-button';
import { CodeInput } from '@/components/code-input';
import { tapSendCode } from '@/lib/code-form';
import { loadDialog } from '@/lib/dialog';
import { waitAfterSendFailure } from '@/lib/send-code';
import { clearSession, getStoredPhone } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useCancelAccount } from '../api/cancel-account';
import { useDataSharing } from '../api/get-data-sharing';
import { useSendCancellationCode } from '../api/send-cancellation-code';
import { DELETION_DEADLINE_WORKING_DAYS } from '../format';
import styles from './account.module.css';
import { ExportDataButton } from './export-data';

const CODE_RESEND_SECONDS = 60;

interface CancelAccountFormProps {
  /**
   * The account is gone (session cleared): the page shows the confirmation, which stays until the
   * person leaves it (issue 44.17). `lenderCount`: lenders that had their data, null when unknown.
   */
  onCancelled(outcome: { lenderCount: number | null }): void;
}

export function CancelAccountForm({ onCancelled }: CancelAccountFormProps) {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const countdown = useCountdown();
  const sendCode = useSendCancellationCode();
  const cancelAccount = useCancelAccount();
  const phone = getStoredPhone();
  // Off once the account is gone: a refetch then would answer 401 and log out to /getQuota.
  const [cancelled, setCancelled] = useState(false);
  const sharing = useDataSharing({ enabled: !cancelled });
  const lenderCount = sharing.data?.list.length ?? 0;

  const onSendCode = () => {
    if (!tapSendCode({ counting: countdown.running, sending: sendCode.isPending }, (m) => toast.show(m)))
      return;
    sendCode.mutate(undefined, {
      onSuccess: (data) => {
        toast.show('验证码已发送');
        countdown.start(data?.retryAfter && data.retryAfter > 0 ? data.retryAfter : CODE_RESEND_SECONDS);
      },
      // The API client showed the message; follow the server's wait after a rate limit.
      onError: (error) => countdown.start(waitAfterSendFailure(error)),
    });
  };

  const onSubmit = async () => {
    if (cancelAccount.isPending) return;
    if (!code.trim()) {
      toast.show('请输入验证码');
      return;
    }
    const confirmed = await (await loadDialog()).confirm({
      title: '确认注销账户？',
      content: `注销后您的账户信息将被删除且无法恢复，获得过您信息的机构将被要求在 ${DELETION_DEADLINE_WORKING_DAYS} 个工作日内删除。确定继续吗？`,
      confirmText: '确认注销',
      cancelText: '再想想',
    });
    if (!confirmed) return;
    cancelAccount.mutate(
      { code: code.trim() },
      {
        onSuccess: () => {
          setCancelled(true);
          const known = sharing.isSuccess ? lenderCount : null;
          clearSession();
          queryClient.clear();
          onCancelled({ lenderCount: known });
        },
      },
    );
  };

  return (
    <div className={styles.cancel}>
      <section className={styles.notice}>
        <h2>注销须知</h2>
        <ul>
          <li>注销后将无法使用当前手机号登录本账户，所有设备上的登录都会失效；</li>
          <li>账户资料、申请记录等信息将被删除且无法恢复；</li>
          <li>
            {lenderCount > 0 ? `已获得您信息的 ${lenderCount} 家机构` : '每一家获得过您信息的机构'}
            都将收到删除通知，须在 {DELETION_DEADLINE_WORKING_DAYS}{' '}
            个工作日内删除您的信息，平台会跟踪直至完成；
          </li>
          <li>已获批或已放款的借款不受影响，请按借款合同按时还款。</li>
        </ul>
        {lenderCount > 0 && (
          <p className={styles.verifyHint}>
            <Link to="/my/data-sharing">查看获得我信息的机构</Link>
          </p>
        )}
      </section>

      <section className={styles.notice}>
        <h2>先导出您的数据</h2>
        <p className={styles.verifyHint}>
          注销后数据无法找回。如需留存，请先下载一份您的全部数据（JSON 文件）。
        </p>
        <ExportDataButton />
      </section>

      <section className={styles.verify}>
        <p className={styles.verifyHint}>
          验证码将发送至 {phone && isValidPhone(phone) ? maskPhone(phone) : '当前登录手机号'}
        </p>
        <div className={styles.field}>
          <CodeInput placeholder="请输入验证码" aria-label="验证码" value={code} onChange={setCode} />
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
