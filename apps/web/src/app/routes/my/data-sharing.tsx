import { RequireLogin } from '@/app/flow/require-login';
import { PageHeader } from '@/components/page-header';
import account from '@/features/account/components/account.module.css';
import { DataSharingList } from '@/features/account/components/data-sharing-list';
import { ExportDataButton } from '@/features/account/components/export-data';
import styles from './my.module.css';

function DataSharing() {
  return (
    <main className={styles.page}>
      <PageHeader title="谁在使用我的数据" fallback="/my" />
      <p className={account.intro}>
        以下是经您授权、获得过您个人信息的机构，以及共享的信息和时间。您可以随时撤回对某家机构的授权：平台将停止向其发送您的信息，并通知该机构。
      </p>
      <DataSharingList />
      <div className={styles.actions}>
        <ExportDataButton />
        <p className={styles.hint}>导出文件包含您在本平台的账户、申请、授权与发送记录。</p>
      </div>
    </main>
  );
}

/** `/my/data-sharing`: who has my data — lender by lender, with withdrawal of consent and export. */
export function DataSharingRoute() {
  return (
    <RequireLogin>
      <DataSharing />
    </RequireLogin>
  );
}
