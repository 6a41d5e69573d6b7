import { AGREEMENT_PAGES } from '@lm/shared/channel';
import { useQuery } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { PageLoading } from '@/components/page-loading';
import { ResultView } from '@/components/result-view';
import { SiteFooter } from '@/components/site-footer';
import { useAgreement } from '@/features/agreements/api/get-agreement';
import { AgreementDocument } from '@/features/agreements/components/agreement-document';
import { fetchConsentedAgreement } from '@/features/consent/api/get-consented-agreement';
import { fetchLenderAgreement, type LenderAgreement } from '@/features/consent/api/get-lender-agreement';
import { isOn } from '@/features/consent/query-options';
import { ApiError } from '@/lib/api-client';
import { useChannelStore, useH5Config } from '@/lib/channel/store';
import styles from './routes.module.css';

/** Agreements the server renders per lender (GET /api/user/info/protocol/{id}?productId). */
const PER_LENDER_AGREEMENTS: readonly string[] = ['information-agreement'];
const PRODUCT_ID = /^\d{1,10}$/;

/**
 * One lender's agreement text: the exact text a consent to that lender records (with its version and
 * SHA-256), or with `consented=1` the text the person consented to (protocol2/getContent). Never the
 * static text instead: that would not be what the person agrees to.
 */
function LenderAgreementView({
  agreementKey,
  productId,
  adChannelCode,
  consented,
}: {
  agreementKey: string;
  productId: string;
  /** The channel the page was reached through: the text names its operator (ADR 057). */
  adChannelCode: string;
  consented: boolean;
}) {
  const settled = useChannelStore((s) => s.status === 'ready' || s.status === 'failed');
  const query = useQuery<LenderAgreement>({
    queryKey: ['agreement', agreementKey, productId, consented, consented ? '' : adChannelCode],
    queryFn: () =>
      consented
        ? fetchConsentedAgreement(productId)
        : fetchLenderAgreement(agreementKey, productId, adChannelCode),
    enabled: consented || settled,
    retry: false,
    staleTime: 60_000,
  });

  if (query.isPending) {
    return (
      <main className={styles.page}>
        <PageHeader title="授权书" fallback="/login" />
        <PageLoading />
      </main>
    );
  }
  if (query.isError || !query.data) {
    return (
      <main className={styles.page}>
        <PageHeader title="授权书" fallback="/login" />
        <ResultView
          status="error"
          title="授权书加载失败"
          description="暂时无法获取该机构的授权书，请稍后重试。在阅读授权书之前，请不要勾选该机构。"
          actions={
            <Button block color="primary" shape="rounded" onClick={() => void query.refetch()}>
              重新加载
            </Button>
          }
        />
      </main>
    );
  }
  const text = query.data;
  return (
    <main className={styles.page}>
      <PageHeader title={text.title} fallback="/login" />
      <article className={styles.article}>
        <h1>《{text.title}》</h1>
        <p className={styles.articleMeta}>
          版本：{text.version}
          {text.consentedAt &&
            `　同意时间：${new Date(text.consentedAt).toLocaleString('zh-CN', { hour12: false })}`}
        </p>
        <div className={styles.articleText}>{text.content}</div>
        <p className={styles.articleHash}>文本校验码（SHA-256）：{text.textHash}</p>
      </article>
    </main>
  );
}

const TITLES: Record<string, string> = Object.fromEntries(AGREEMENT_PAGES.map((p) => [p.key, p.title]));

/** An agreement page's text from the server (GET /api/agreement/:code), with loading and error states. */
function AgreementDocumentView({ agreementKey }: { agreementKey: string }) {
  const query = useAgreement(agreementKey);
  const fallbackTitle = TITLES[agreementKey] ?? '协议';
  if (query.isPending) {
    return (
      <>
        <PageHeader title={fallbackTitle} fallback="/login" />
        <PageLoading />
      </>
    );
  }
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.code === 404;
    return (
      <>
        <PageHeader title={fallbackTitle} fallback="/login" />
        <ResultView
          status="error"
          title={missing ? '协议不存在' : '协议加载失败'}
          description={
            missing
              ? '该协议暂未发布或已下线，请返回上一页。'
              : `暂时无法获取《${fallbackTitle}》，请检查网络后重试。在阅读协议之前，请不要勾选同意。`
          }
          actions={
            missing ? undefined : (
              <Button block color="primary" shape="rounded" onClick={() => void query.refetch()}>
                重新加载
              </Button>
            )
          }
        />
      </>
    );
  }
  return (
    <>
      <PageHeader title={query.data.title} fallback="/login" />
      <AgreementDocument doc={query.data} />
    </>
  );
}

/**
 * An agreement page (spec §2): the text in force from the server, with its version, effective date and
 * operator — the channel's (ADR 057) — then the channel's footer naming the same company. For a per-lender agreement with `?productId=`,
 * that lender's text instead.
 */
export function AgreementRoute({ agreementKey }: { agreementKey: string }) {
  const { footer, adChannelCode } = useH5Config();
  const [query] = useSearchParams();
  const productId = query.get('productId')?.trim() ?? '';
  if (PER_LENDER_AGREEMENTS.includes(agreementKey) && PRODUCT_ID.test(productId)) {
    return (
      <LenderAgreementView
        agreementKey={agreementKey}
        productId={productId}
        adChannelCode={adChannelCode}
        consented={isOn(query.get('consented'))}
      />
    );
  }
  return (
    <main className={styles.page}>
      <AgreementDocumentView agreementKey={agreementKey} />
      <SiteFooter companies={footer} />
    </main>
  );
}
