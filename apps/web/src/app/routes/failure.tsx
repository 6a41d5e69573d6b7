import { Button } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { ResultView } from '@/components/result-view';
import styles from './routes.module.css';

/** `/failure`: something did not go through; retry where the person came from, or go home. */
export function FailureRoute() {
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const message = query.get('msg')?.trim().slice(0, 60) || '网络不稳定或服务繁忙，请稍后重试';
  const retry = () => {
    if (typeof window.history.state?.idx === 'number' && window.history.state.idx > 0) navigate(-1);
    else window.location.reload();
  };
  return (
    <main className={styles.page}>
      <PageHeader title="申请失败" />
      <ResultView
        status="error"
        title="申请未成功"
        description={message}
        actions={
          <>
            <Button block color="primary" shape="rounded" size="large" onClick={retry}>
              重试
            </Button>
            <Button block fill="none" onClick={() => navigate('/', { replace: true })}>
              返回首页
            </Button>
          </>
        }
      />
    </main>
  );
}
