import Button from 'antd-mobile/es/components/button';
import Checkbox from 'antd-mobile/es/components/checkbox';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { HomeButton } from '@/components/home-button';
import { PageHeader } from '@/components/page-header';
import { ResultView } from '@/components/result-view';
import { withQuery } from '@/features/consent/query-options';
import { toast } from '@/lib/toast';
import styles from '../routes.module.css';
import { usePartnerTarget } from './partner-target';

/**
 * `/fill-information/joint-auth-login` (link type 8, joint login): the person agrees to log in to the
 * partner with this account, then the partner page opens (only an allowed partner host).
 */
export function JointAuthLoginRoute() {
  const navigate = useNavigate();
  const { productName, target } = usePartnerTarget();
  const [agreed, setAgreed] = useState(false);

  const open = () => {
    if (!agreed) {
      toast.show('请先阅读并同意授权协议');
      return;
    }
    if (target.ok) navigate(withQuery('/inline-page', { url: target.url, productName }));
  };

  return (
    <main className={styles.page}>
      <PageHeader title="联合登录" fallback="/borrow-money" />
      <ResultView
        status={target.ok ? 'info' : 'error'}
        title={target.ok ? `使用本账号登录${productName}` : '暂时无法登录合作机构'}
        description={
          target.ok
            ? `授权后，${productName}将获得您的手机号用于登录，无需重复注册。`
            : '合作机构的登录地址缺失或不在白名单内，请返回后重试。'
        }
        actions={
          target.ok ? (
            <>
              <Checkbox
                checked={agreed}
                onChange={setAgreed}
                style={{ '--icon-size': 'calc(15 * var(--px))' }}
              >
                <span className={styles.note}>
                  我已阅读并同意<Link to="/information-agreement">《个人信息授权书》</Link>
                </span>
              </Checkbox>
              <Button block color="primary" shape="rounded" size="large" onClick={open}>
                授权并登录
              </Button>
              <Button block fill="none" onClick={() => navigate('/borrow-money', { replace: true })}>
                暂不授权
              </Button>
            </>
          ) : (
            <HomeButton block />
          )
        }
      />
    </main>
  );
}
