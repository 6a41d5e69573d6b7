import { LEAD_STATUS_LABELS } from '@lm/shared/privacy-labels';
import type { DataSharingEntry } from '@lm/shared/schemas/privacy';
import Button from 'antd-mobile/es/components/button';
import Tag from 'antd-mobile/es/components/tag';
import { EmptyState } from '@/components/empty-state';
import { loadDialog } from '@/lib/dialog';
import { toast } from '@/lib/toast';
import { useDataSharing } from '../api/get-data-sharing';
import { useWithdrawConsent } from '../api/withdraw-consent';
import { formatDateTime, noticeText } from '../format';
import styles from './account.module.css';
import { LoadFailed, Loading, Row } from './list-parts';

function StatusTag({ entry }: { entry: DataSharingEntry }) {
  if (entry.withdrawn) return <Tag color="default">已撤回</Tag>;
  if (entry.lastSharedAt) return <Tag color="primary">已共享</Tag>;
  return <Tag color="warning">已授权，未发送</Tag>;
}

function LenderCard({ entry }: { entry: DataSharingEntry }) {
  const withdraw = useWithdrawConsent();

  const onWithdraw = async () => {
    const confirmed = await (await loadDialog()).confirm({
      title: `撤回对「${entry.lenderName}」的授权？`,
      content: (
        <ul className={styles.dialogList}>
          <li>平台将不再向该机构发送您的个人信息，尚未发送的申请会取消；</li>
          <li>我们会通知该机构您已撤回授权，要求其停止使用您的信息；</li>
          <li>已获批或已放款的借款不受影响，请按借款合同按时还款；</li>
          <li>撤回后如需再次申请该机构的产品，需要重新授权。</li>
        </ul>
      ),
      confirmText: '确认撤回',
      cancelText: '暂不撤回',
    });
    if (!confirmed) return;
    withdraw.mutate(
      { partnerId: entry.partnerId },
      { onSuccess: () => toast.show({ icon: 'success', content: '已撤回授权' }) },
    );
  };

  return (
    <article className={styles.card} aria-label={entry.lenderName}>
      <div className={styles.cardHead}>
        <div>
          <h2 className={styles.cardTitle}>{entry.lenderName}</h2>
          <p className={styles.cardSub}>
            {entry.licenceNumber ? `许可证号：${entry.licenceNumber}` : '许可证号：—'}
          </p>
        </div>
        <StatusTag entry={entry} />
      </div>
      <dl className={styles.rows}>
        {entry.products.length > 0 && <Row label="申请产品">{entry.products.join('、')}</Row>}
        <Row label="共享信息">
          {entry.fieldLabels.length > 0 ? (
            <span className={styles.chips}>
              {entry.fieldLabels.map((label) => (
                <span key={label} className={styles.chip}>
                  {label}
                </span>
              ))}
            </span>
          ) : (
            '—'
          )}
        </Row>
        <Row label="首次授权">{formatDateTime(entry.firstConsentAt)}</Row>
        <Row label="最近发送">{entry.lastSharedAt ? formatDateTime(entry.lastSharedAt) : '尚未发送'}</Row>
        {entry.leads.length > 0 && (
          <Row label="发送记录">
            {entry.leads.map((lead) => (
              <div key={`${lead.productName}-${lead.consentedAt}`}>
                {lead.productName}：{LEAD_STATUS_LABELS[lead.status]}
                {lead.deliveredAt ? `（${formatDateTime(lead.deliveredAt)}）` : ''}
              </div>
            ))}
          </Row>
        )}
        {entry.withdrawn && <Row label="撤回时间">{formatDateTime(entry.withdrawnAt)}</Row>}
      </dl>
      {entry.notice && <p className={styles.noticeLine}>{noticeText(entry.notice)}</p>}
      {!entry.withdrawn && (
        <div className={styles.cardFoot}>
          <span>不想再让该机构使用您的信息？</span>
          <Button
            size="small"
            color="danger"
            fill="outline"
            shape="rounded"
            loading={withdraw.isPending}
            onClick={onWithdraw}
          >
            撤回授权
          </Button>
        </div>
      )}
    </article>
  );
}

/** "Who has my data": one card per lender that the person authorised, with withdrawal. */
export function DataSharingList() {
  const query = useDataSharing();
  if (query.isPending) return <Loading lines={5} />;
  if (query.isError) return <LoadFailed retrying={query.isFetching} onRetry={() => void query.refetch()} />;
  const list = query.data.list;
  if (list.length === 0) {
    return (
      <EmptyState
        title="暂无机构获得您的信息"
        description="您还没有授权任何机构使用您的个人信息。申请借款并勾选授权后，获得信息的机构会显示在这里。"
      />
    );
  }
  return (
    <section className={styles.cards} aria-label="获得您信息的机构">
      {list.map((entry) => (
        <LenderCard key={entry.partnerId} entry={entry} />
      ))}
    </section>
  );
}
