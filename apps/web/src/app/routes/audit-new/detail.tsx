import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import styles from './audit-new.module.css';

/** `/audit-new/:id`: one article; unknown ids get "not found". */
export function AuditNewDetailRoute() {
  const navigate = useNavigate();
  return (
    <main className={styles.page}>
      <PageHeader title="资讯详情" fallback="/audit-new" />
      <EmptyState title="资讯不存在或已下线" description="您可以返回列表查看其他资讯">
        <Button color="primary" shape="rounded" onClick={() => navigate('/audit-new', { replace: true })}>
          返回资讯列表
        </Button>
      </EmptyState>
    </main>
  );
}
