import Button from 'antd-mobile/es/components/button';
import { useNavigate } from 'react-router';
import { RequireLogin } from '@/app/flow/require-login';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { ApplicationRecordList } from '@/features/account/components/application-record-list';
import { useH5Config } from '@/lib/channel/store';
import styles from './my.module.css';

function ApplicationRecord() {
  const config = useH5Config();
  const navigate = useNavigate();
  return (
    <main className={styles.page}>
      <PageHeader title="申请记录" fallback="/my" />
      <ApplicationRecordList
        empty={
          <EmptyState
            title="暂无申请记录"
            description="提交借款申请并授权机构后，可在这里查看每一笔申请的进度"
          >
            <Button color="primary" shape="rounded" onClick={() => navigate(config.flowRoutes.form)}>
              去申请
            </Button>
          </EmptyState>
        }
      />
    </main>
  );
}

/** `/my/application-record`: every application with its products, lenders, APR, consents, deliveries and outcomes. */
export function ApplicationRecordRoute() {
  return (
    <RequireLogin>
      <ApplicationRecord />
    </RequireLogin>
  );
}
