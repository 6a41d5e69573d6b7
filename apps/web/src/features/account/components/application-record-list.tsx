import { LEAD_STATUS_LABELS, OFFER_STATUS_LABELS } from '@lm/shared/privacy-labels';
import type { ApplicationOffer, ApplicationRecord } from '@lm/shared/schemas/privacy';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import Tag from 'antd-mobile/es/components/tag';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { loadChunk } from '@/lib/chunk-load';
import { useApplications } from '../api/get-applications';
import { formatApr, formatDateTime, leadTone, matchTypeText, offerTone, outcomeView } from '../format';
import styles from './account.module.css';
import { LoadFailed, Loading, Row } from './list-parts';

// The popup (antd-mobile's Popup and its animation library, ~27 KB gzipped) loads when a consent's text
// is asked for, not with the record (issue 46.5).
const ConsentTextPopup = lazy(() =>
  loadChunk(() => import('./consent-text-popup')).then((m) => ({ default: m.ConsentTextPopup })),
);

function Offer({ offer, onReadConsent }: { offer: ApplicationOffer; onReadConsent: (id: number) => void }) {
  const { consent, delivery, outcome } = offer;
  const result = outcome ? outcomeView(outcome) : null;
  return (
    <div className={styles.offer}>
      <div className={styles.offerHead}>
        <p className={styles.offerName}>{offer.productName}</p>
        <Tag color={offerTone(offer.status)}>{OFFER_STATUS_LABELS[offer.status]}</Tag>
      </div>
      <dl className={styles.rows}>
        <Row label="放款机构">{offer.lenderName}</Row>
        <Row label="参考利率">
          <span className={styles.apr}>{formatApr(offer.aprBps)}</span>
        </Row>
        {consent && (
          <>
            <Row label="授权时间">{formatDateTime(consent.createdAt)}</Row>
            <Row label="授权协议">
              版本 {consent.agreementVersion}　
              <button type="button" className={styles.linkButton} onClick={() => onReadConsent(consent.id)}>
                查看授权书
              </button>
            </Row>
            {consent.withdrawnAt && <Row label="撤回时间">{formatDateTime(consent.withdrawnAt)}</Row>}
          </>
        )}
        {delivery && (
          <Row label="资料发送">
            <Tag color={leadTone(delivery.status)} fill="outline">
              {LEAD_STATUS_LABELS[delivery.status]}
            </Tag>
            {delivery.deliveredAt && ` ${formatDateTime(delivery.deliveredAt)}`}
          </Row>
        )}
        {result && (
          <Row label="机构审批">
            <Tag color={result.tone}>{result.label}</Tag>
            {result.amount && <span className={styles.outcomeAmount}>{result.amount}</span>}
          </Row>
        )}
      </dl>
    </div>
  );
}

function RecordCard({
  record,
  onReadConsent,
}: {
  record: ApplicationRecord;
  onReadConsent: (id: number) => void;
}) {
  return (
    <article className={styles.card} aria-label={`申请 ${formatDateTime(record.createdAt)}`}>
      <div className={styles.cardHead}>
        <div>
          <h2 className={styles.cardTitle}>{formatDateTime(record.createdAt)}</h2>
          <p className={styles.cardSub}>
            {matchTypeText(record.matchType)} · 申请编号 {record.runId}
          </p>
        </div>
        <span className={styles.cardSub}>{record.offers.length} 个产品</span>
      </div>
      {record.offers.length === 0 ? (
        <p className={styles.cardSub}>本次申请暂无匹配的产品</p>
      ) : (
        record.offers.map((offer) => (
          <Offer key={offer.offerId} offer={offer} onReadConsent={onReadConsent} />
        ))
      )}
    </article>
  );
}

/**
 * Every application of the person, newest first: products, lenders, APR, consents, deliveries and each lender's
 * outcome as it reported it (申请中 / 已授信 / 已放款 / 未通过, issue 47.6).
 */
export function ApplicationRecordList({ empty }: { empty: ReactNode }) {
  const query = useApplications();
  const [consentId, setConsentId] = useState<number | null>(null);

  if (query.isPending) return <Loading lines={6} />;
  if (query.isError && !query.data) {
    return <LoadFailed retrying={query.isFetching} onRetry={() => void query.refetch()} />;
  }
  const records = query.data.pages.flatMap((p) => p.list);
  const total = query.data.pages[0]?.total ?? 0;
  if (records.length === 0) return <>{empty}</>;

  return (
    <>
      <p className={styles.intro}>
        共 <strong>{total}</strong>{' '}
        次申请。每个产品的授权时间、授权协议版本、资料发送情况和机构的审批结果都记录在这里。
      </p>
      <section className={styles.cards} aria-label="申请记录">
        {records.map((record) => (
          <RecordCard key={record.runId} record={record} onReadConsent={setConsentId} />
        ))}
      </section>
      <InfiniteScroll
        hasMore={query.hasNextPage && !query.isFetchNextPageError}
        loadMore={async () => {
          await query.fetchNextPage();
        }}
      >
        {query.isFetchNextPageError ? (
          <button type="button" className={styles.linkButton} onClick={() => void query.fetchNextPage()}>
            加载失败，点击重试
          </button>
        ) : query.hasNextPage ? (
          '加载中…'
        ) : (
          '没有更多了'
        )}
      </InfiniteScroll>
      {consentId !== null && (
        <Suspense fallback={null}>
          <ConsentTextPopup consentId={consentId} onClose={() => setConsentId(null)} />
        </Suspense>
      )}
    </>
  );
}
