import { isValidPhone, PHONE_FORMAT_MSG, PHONE_REQUIRED_MSG } from '@lm/shared/validators/phone';
import { useMutation } from '@tanstack/react-query';
import { Button, Input, Toast } from 'antd-mobile';
import { useState } from 'react';
import { staffLogin } from '@/app/common/api';
import { storage } from '@/lib/storage';
import styles from './crm-login.module.css';

/** The console's localStorage key for the staff token (apps/admin/src/config/constants.ts). */
const ADMIN_TOKEN_KEY = 'ADMIN_TOKEN';

/** `/crm-login`: staff sign-in (phone + password), then the console at /admin/. */
export function CrmLoginRoute() {
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({ mutationFn: staffLogin });

  const submit = () => {
    if (login.isPending) return;
    if (!phone) return void Toast.show(PHONE_REQUIRED_MSG);
    if (!isValidPhone(phone)) return void Toast.show(PHONE_FORMAT_MSG);
    if (!password) return void Toast.show('请输入密码');
    login.mutate(
      { phone, password },
      {
        onSuccess: (data) => {
          storage.set(ADMIN_TOKEN_KEY, data.token);
          Toast.show({ content: '登录成功', duration: 1000 });
          window.location.assign('/admin/');
        },
      },
    );
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
            onChange={(v) => setPhone(v.replace(/\D/g, '').slice(0, 11))}
          />
        </div>
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
        <Button block type="submit" color="primary" shape="rounded" size="large" loading={login.isPending}>
          登录
        </Button>
        <p className={styles.hint}>忘记密码请联系管理员重置。连续输错5次，账号将锁定15分钟。</p>
      </form>
    </main>
  );
}
