import { maskIdCard, maskName, maskPhone } from '@lm/shared/mask';
import { isValidPhone } from '@lm/shared/validators/phone';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useNavigate } from 'react-router';
import { RequireLogin } from '@/app/flow/require-login';
import { ErrorState } from '@/components/error-state';
import { PageHeader } from '@/components/page-header';
import { useApplicationDraft } from '@/features/account/api/get-application-draft';
import { useLoginUserInfo } from '@/features/account/api/get-login-user-info';
import { useExportDownload } from '@/features/account/components/export-data';
import { formatDate } from '@/features/account/format';
import styles from './my.module.css';

const displayMobile = (mobile: string) => (isValidPhone(mobile) ? maskPhone(mobile) : mobile);

/** The server sends name and ID number masked already; mask again only if a clear value ever slips through. */
const displayName = (name: string) => (name.includes('*') ? name : maskName(name));
const displayIdNumber = (id: string) => (id.includes('*') ? id : maskIdCard(id));

function IdentitySection() {
  const draft = useApplicationDraft();
  if (draft.isPending) {
    return (
      <div className={styles.actions}>
        <Skeleton.Paragraph lineCount={2} animated />
      </div>
    );
  }
  const realName = draft.data?.realName?.trim();
  const identity = draft.data?.identity?.trim();
  return (
    <List className={styles.section} header="实名信息">
      {draft.isError ? (
        <List.Item
          description="暂时无法获取实名信息"
          extra={
            <Button size="mini" onClick={() => void draft.refetch()}>
              重试
            </Button>
          }
        >
          姓名与身份证号
        </List.Item>
      ) : (
        <>
          <List.Item
            extra={<span className={styles.masked}>{realName ? displayName(realName) : '未填写'}</span>}
          >
            姓名
          </List.Item>
          <List.Item
            extra={<span className={styles.masked}>{identity ? displayIdNumber(identity) : '未填写'}</span>}
          >
            身份证号
          </List.Item>
        </>
      )}
    </List>
  );
}

function PersonalData() {
  const navigate = useNavigate();
  const info = useLoginUserInfo();
  const exportData = useExportDownload();
  return (
    <main className={styles.page}>
      <PageHeader title="个人资料" fallback="/my" />
      {info.isPending ? (
        <div className={styles.actions}>
          <Skeleton.Paragraph lineCount={4} animated />
        </div>
      ) : info.isError || !info.data ? (
        <ErrorState title="加载失败" description="请稍后重试">
          <Button size="small" onClick={() => void info.refetch()}>
            重新加载
          </Button>
        </ErrorState>
      ) : (
        <>
          <List className={styles.section} header="账户信息">
            <List.Item extra={<span className={styles.masked}>{displayMobile(info.data.mobile)}</span>}>
              手机号
            </List.Item>
            <List.Item extra={info.data.uid}>用户编号</List.Item>
            <List.Item extra={formatDate(info.data.createdAt)}>注册时间</List.Item>
          </List>
          <IdentitySection />
          <List className={styles.section} header="我的数据">
            <List.Item
              description="查看获得您信息的机构、共享的内容和时间，可撤回授权"
              onClick={() => navigate('/my/data-sharing')}
            >
              谁在使用我的数据
            </List.Item>
            <List.Item
              description="下载您在本平台的全部数据（JSON 文件）"
              extra={exportData.isPending ? '导出中…' : undefined}
              onClick={exportData.run}
            >
              导出我的数据
            </List.Item>
            <List.Item onClick={() => navigate('/my/application-record')}>申请记录</List.Item>
          </List>
          <p className={styles.hint}>为保护您的隐私，手机号、姓名、身份证号已脱敏显示。</p>
        </>
      )}
    </main>
  );
}

/** `/my/personal-data`: the account's data, masked, with export and "who has my data". */
export function PersonalDataRoute() {
  return (
    <RequireLogin>
      <PersonalData />
    </RequireLogin>
  );
}
