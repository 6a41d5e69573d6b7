import { ErrorCode } from '@lm/shared/errors';
import { isValidPhone, PHONE_FORMAT_MSG, PHONE_REQUIRED_MSG } from '@lm/shared/validators/phone';
// Deep imports keep the landing's first load free of antd-mobile's animation library. They skip
// antd-mobile's global module, whose CSS variables (--adm-color-light, --adm-color-text-light-solid …)
// draw the checkbox, the placeholders and the button text: without it /login, /getQuota and /h5
// (the login page's template carries only this form's stylesheets) showed no checkbox (issue 16.2).
import 'antd-mobile/es/global';
import { useCountdown } from '@lm/shared/client/use-countdown';
import Button from 'antd-mobile/es/components/button';
import Checkbox from 'antd-mobile/es/components/checkbox';
import Input from 'antd-mobile/es/components/input';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { CodeButton } from '@/components/code-button';
import { reportStep } from '@/lib/analytics/reporter';
import { ApiError } from '@/lib/api-client';
import { getStoredChannelCode } from '@/lib/channel/code';
import { useChannelStore } from '@/lib/channel/store';
import { queryClient } from '@/lib/react-query';
import { browserOnline, sendCodeStep, waitAfterSendFailure } from '@/lib/send-code';
import { saveSession } from '@/lib/session';
import { shellChecked, shellValue, takeShellAtHandoff, takeShellTap } from '@/lib/shell-input';
import { toast } from '@/lib/toast';
import { type EncryptionMobileInput, useEncryptionMobile } from '../api/get-encryption-mobile';
import { type LoginData, useLogin } from '../api/login';
import { type PhoneCarrier, useSendVerifyCode } from '../api/send-verify-code';
import { forgetLoginDraft, keepCodeWait, keepLoginPhone, readLoginDraft } from '../login-draft';
import { readPhoneLink } from '../phone-link';
import styles from './login-form.module.css';

const CODE_RESEND_SECONDS = 60;
const PHONE_LABEL = '手机号';
const CODE_LABEL = '验证码';
/** The code button's text (components/code-button.tsx) as a tap on the server's page notes it. */
const SEND_CODE_TEXT = '获取验证码';
const LOGIN_TOAST_MS = 1000;

/**
 * What follows a login (the page to return to, else the post-login decision), given by the page that
 * shows the form (app/sign-in/post-login.ts): it resolves to the navigation, which returns its
 * cancellation. The form knows nothing of the flow (issue 18: a feature imports no other feature).
 */
export type AfterLogin = (loginUser: LoginData['loginUser'], search: string) => Promise<() => () => void>;

interface LoginFormProps {
  /** Loads what follows a login on demand (not needed to show the form); prefetched once a code was sent. */
  loadAfterLogin: () => Promise<{ afterLogin: AfterLogin }>;
  submitText?: string;
  defaultPhone?: string;
}

const digitsOnly = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

function toastUnexpected(error: unknown) {
  // ApiErrors were already shown by the API client (or are silent cancellations).
  if (error instanceof ApiError) return;
  toast.show({ content: error instanceof Error ? error.message : '未知错误，请稍后重试', duration: 3000 });
}

/**
 * Phone + SMS code login (spec §2 /login, §5, §7). A link with an encrypted phone (`encryptionMobile`,
 * `rp` or `rsaPhone`, see phone-link.ts) shows the masked phone read-only and skips the phone checks;
 * the server's ticket stands in for the phone.
 */
export function LoginForm({ loadAfterLogin, submitText = '登录', defaultPhone = '' }: LoginFormProps) {
  const location = useLocation();
  const storeChannelCode = useChannelStore((s) => s.adChannelCode);
  const skin = useChannelStore((s) => s.config.skin);
  // The bootstrap resolved it (query, route code or stored) before the first render.
  const channelCode = storeChannelCode || getStoredChannelCode() || '';

  const link = useMemo(() => readPhoneLink(new URLSearchParams(location.search)), [location.search]);
  const [linkRejected, setLinkRejected] = useState(false);
  const lookup: EncryptionMobileInput | null =
    link?.kind === 'encrypted' && !linkRejected
      ? {
          encryptionMobile: link.encryptionMobile,
          // Without a source in the link the channel code names the partner.
          source: link.source ?? channelCode,
          ...(channelCode ? { channelCode } : {}),
        }
      : null;
  const encrypted = useEncryptionMobile(lookup);
  const ticket = lookup && encrypted.status === 'success' ? encrypted.data : null;
  const resolvingLink = lookup !== null && encrypted.status === 'pending';

  // What this tab kept before a reload or a look at an agreement (login-draft.ts).
  const [kept] = useState(() => readLoginDraft());
  // A server-rendered login page (issue 17.1) may have been typed into before the app took it over.
  const [phone, setPhone] = useState(() =>
    digitsOnly(
      defaultPhone || (link?.kind === 'clear' ? link.phone : '') || shellValue(PHONE_LABEL) || kept.phone,
      11,
    ),
  );
  const [code, setCode] = useState(() => digitsOnly(shellValue(CODE_LABEL), 6));
  const [agreed, setAgreed] = useState(shellChecked);
  const formRef = useRef<HTMLFormElement>(null);
  // The first render read the shell, but it renders in slices (a transition): what the visitor typed,
  // ticked or focused on the shell after that read and before the app took the screen counts too. Read
  // again as the shell goes, before the browser paints the app's form; the focus stays where it was.
  const linkPhone = link?.kind === 'clear' ? link.phone : '';
  useLayoutEffect(() => {
    const late = takeShellAtHandoff();
    if (!late) return;
    const typedPhone = late.values[PHONE_LABEL];
    if (typedPhone !== undefined && !defaultPhone && !linkPhone)
      setPhone(digitsOnly(typedPhone || kept.phone, 11));
    const typedCode = late.values[CODE_LABEL];
    if (typedCode !== undefined) setCode(digitsOnly(typedCode, 6));
    setAgreed(late.checked);
    if (late.focusedLabel)
      formRef.current?.querySelector<HTMLInputElement>(`input[aria-label="${late.focusedLabel}"]`)?.focus();
  }, [defaultPhone, linkPhone, kept.phone]);
  const [deciding, setDeciding] = useState(false);
  const countdown = useCountdown();
  // The wait after a code sent to this phone goes on where it was.
  const resumeWait = useRef(phone === kept.phone ? kept.resendSeconds : 0);
  useEffect(() => {
    if (resumeWait.current > 0) countdown.start(resumeWait.current);
  }, [countdown.start]);
  // The phone typed is kept for the tab (not a phone that an encrypted link stands in for).
  const typing = lookup === null;
  useEffect(() => {
    if (typing) keepLoginPhone(phone);
  }, [typing, phone]);
  // A code request under pressure is answered with a challenge (ADR 055), solved here before the code is sent.
  const [verifying, setVerifying] = useState(false);
  const sendCode = useSendVerifyCode(setVerifying);
  const login = useLogin();
  const cancelNavigation = useRef<() => void>(undefined);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      cancelNavigation.current?.();
    };
  }, []);

  // A link whose phone cannot be read falls back to typing the phone (the API client showed why).
  useEffect(() => {
    if (encrypted.status === 'error') setLinkRejected(true);
  }, [encrypted.status]);

  /** The phone carrier for the API, or null after toasting what is wrong (spec §5). */
  const carrier = (): PhoneCarrier | null => {
    if (ticket) return { encryptionMobile: ticket.ticket };
    if (resolvingLink) {
      toast.show('正在识别手机号，请稍候');
      return null;
    }
    if (!phone) {
      toast.show(PHONE_REQUIRED_MSG);
      return null;
    }
    if (!isValidPhone(phone)) {
      toast.show(PHONE_FORMAT_MSG);
      return null;
    }
    return { phone };
  };

  /** An expired or invalid ticket (1003): type the phone instead. */
  const dropTicketOn = (error: unknown) => {
    if (ticket && error instanceof ApiError && error.code === ErrorCode.ENCRYPTED_MOBILE_INVALID) {
      setLinkRejected(true);
    }
  };

  const onSendCode = () => {
    const step = sendCodeStep({
      counting: countdown.running,
      sending: sendCode.isPending,
      online: browserOnline(),
    });
    if (step.kind === 'wait') return;
    if (step.kind === 'offline') {
      // Nothing is sent; the button stays as it was, so the next tap tries again.
      toast.show({ content: step.message, duration: 2000 });
      return;
    }
    const to = carrier();
    if (!to) return;
    sendCode.mutate(to, {
      onSuccess: (data) => {
        toast.show('验证码已发送');
        const wait = data.retryAfter > 0 ? data.retryAfter : CODE_RESEND_SECONDS;
        countdown.start(wait);
        keepCodeWait(typing ? phone : '', wait);
        void reportStep('get_verification_code');
        void loadAfterLogin().catch(() => undefined);
      },
      onError: (error) => {
        dropTicketOn(error);
        // The API client showed the message (a network failure at once: "网络连接错误"); after a rate
        // limit the countdown follows the server's wait, otherwise the next tap sends again.
        const wait = waitAfterSendFailure(error);
        countdown.start(wait);
        if (wait > 0) keepCodeWait(typing ? phone : '', wait);
        toastUnexpected(error);
      },
    });
  };

  // 获取验证码 tapped on the server's page before the app arrived: the visitor asked for a code.
  const sendOnTakeOver = useRef(onSendCode);
  useEffect(() => {
    if (takeShellTap() === SEND_CODE_TEXT) sendOnTakeOver.current();
  }, []);

  const onLoggedIn = async (data: LoginData, shownPhone: string) => {
    saveSession({ token: data.token, uid: data.loginUser.uid, phone: shownPhone });
    forgetLoginDraft();
    // Spec §4 step 1: refresh user info (drop whatever was cached for the previous session).
    queryClient.removeQueries({ queryKey: ['login-user-info'] });
    toast.show({ content: '登录成功', duration: LOGIN_TOAST_MS });
    void reportStep('login');
    setDeciding(true);
    try {
      const { afterLogin } = await loadAfterLogin();
      const go = await afterLogin(data.loginUser, location.search);
      if (mounted.current) cancelNavigation.current = go();
    } catch (error) {
      // The decision's code failed to load (network): the person is logged in; let them retry.
      setDeciding(false);
      toastUnexpected(error);
    }
  };

  const onSubmit = () => {
    if (login.isPending || deciding) return;
    const to = carrier();
    if (!to) return;
    if (!code.trim()) {
      toast.show('请输入验证码');
      return;
    }
    if (!agreed) {
      toast.show('请先阅读并同意协议');
      return;
    }
    login.mutate(
      {
        ...to,
        code: code.trim(),
        adChannelCode: channelCode || undefined,
        abTestType: skin,
        isFormReq: location.pathname.includes('getQuota'),
      },
      {
        onSuccess: (data) => void onLoggedIn(data, ticket ? ticket.mobile : phone),
        onError: (error) => {
          dropTicketOn(error);
          toastUnexpected(error);
        },
      },
    );
  };

  return (
    <form
      ref={formRef}
      className={styles.form}
      // The toast component is loaded on demand: start while the network is likely there.
      onFocus={() => toast.preload()}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <div className={styles.field}>
        {lookup ? (
          <Input
            type="tel"
            aria-label="手机号"
            readOnly
            value={ticket?.mobile ?? ''}
            placeholder={resolvingLink ? '正在识别手机号…' : '请输入手机号'}
          />
        ) : (
          <Input
            type="tel"
            inputMode="numeric"
            autoComplete="tel"
            placeholder="请输入手机号"
            aria-label={PHONE_LABEL}
            maxLength={11}
            clearable
            value={phone}
            onChange={(value) => setPhone(digitsOnly(value, 11))}
          />
        )}
      </div>
      <div className={styles.field}>
        <Input
          type="tel"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="请输入验证码"
          aria-label={CODE_LABEL}
          maxLength={6}
          value={code}
          onChange={(value) => setCode(digitsOnly(value, 6))}
        />
        <CodeButton
          seconds={countdown.seconds}
          loading={sendCode.isPending}
          {...(verifying ? { loadingText: '验证中…' } : {})}
          onClick={onSendCode}
        />
      </div>
      {verifying && <output className={styles.verifying}>正在进行安全验证…</output>}
      <Button
        block
        type="submit"
        color="primary"
        shape="rounded"
        size="large"
        loading={login.isPending || deciding}
      >
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
