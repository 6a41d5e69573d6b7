import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { ResultView } from '@/components/result-view';
import styles from '../routes.module.css';

/** `/register/success`: registered (also where the excluded-city location flow ends, spec §4). */
export function RegisterSuccessRoute() {
  const navigate = useNavigate();
  return (
    <main className={styles.page}>
      <PageHeader title="注册成功" fallback="/" />
      <ResultView
        status="success"
        title="注册成功"
        description="感谢您的注册。下载App可随时查看适合您的借款产品和申请进度。"
        actions={
          <>
            <Button block color="primary" shape="rounded" size="large" onClick={() => navigate('/download')}>
              下载App
            </Button>
            <Button block fill="none" onClick={() => navigate('/borrow-money', { replace: true })}>
              进入首页
            </Button>
          </>
        }
      />
    </main>
  );
}
