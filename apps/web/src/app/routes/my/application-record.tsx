import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { RequireLogin } from '@/app/common/require-login';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { useH5Config } from '@/features/channel/store';
import styles from './my.module.css';

/** `/my/application-record`: the person's applications (listed once the application issue lands). */
export function ApplicationRecordRoute() {
  const config = useH5Config();
  const navigate = useNavigate();
  return (
    <RequireLogin>
      <main className={styles.page}>
        <PageHeader title="申请记录" fallback="/my" />
        <EmptyState title="暂无申请记录" description="提交借款申请并授权机构后，可在这里查看每一笔申请的进度">
          <Button color="primary" shape="rounded" onClick={() => navigate(config.flowRoutes.form)}>
            去申请
          </Button>
        </EmptyState>
      </main>
    </RequireLogin>
  );
}
