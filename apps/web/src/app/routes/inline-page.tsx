import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { HomeButton } from '@/components/home-button';
import { PageHeader } from '@/components/page-header';
import { PageLoading } from '@/components/page-loading';
import { ResultView } from '@/components/result-view';
import { checkInlineUrl } from '@/features/consent/allowed-url';
import { vouchedPartnerUrls } from '@/features/consent/consent-result';
import { useChannelStore, useH5Config } from '@/lib/channel/store';
import styles from './inline-page.module.css';

const REFUSALS = {
  missing: '链接地址缺失，无法打开',
  invalid: '链接地址无效，已为您拦截',
  insecure: '该链接不是安全的 https 地址，已为您拦截',
  'not-allowed': '该链接不在合作机构白名单内，已为您拦截',
} as const;

/**
 * `/inline-page?url=…&productName=…`: a partner page inside the H5 — only when its host is one of the
 * channel's allowed partner hosts, or the URL is exactly a lender page our server named in this
 * session (a consented H5-redirect product, an "already registered" match: see consent-result.ts);
 * anything else is refused (open-redirect and phishing defence).
 */
export function InlinePageRoute() {
  const [query] = useSearchParams();
  const config = useH5Config();
  const status = useChannelStore((s) => s.status);
  const productName = query.get('productName')?.trim() || '合作机构';
  const [loaded, setLoaded] = useState(false);

  // The allowed hosts come with h5Config: wait for it rather than refusing too early.
  if (status === 'idle' || status === 'loading') return <PageLoading />;

  const check = checkInlineUrl(query.get('url'), config.allowedHosts, vouchedPartnerUrls());
  if (!check.ok) {
    return (
      <main className={styles.page}>
        <PageHeader title={productName} fallback="/borrow-money" />
        <ResultView
          status="error"
          title="已拦截"
          description={REFUSALS[check.reason]}
          actions={<HomeButton block />}
        >
          {check.host && <p className={styles.host}>目标地址：{check.host}</p>}
          <p className={styles.warn}>请勿在非合作机构页面填写个人信息或支付任何费用。</p>
        </ResultView>
      </main>
    );
  }

  return (
    <main className={styles.framePage}>
      <PageHeader title={productName} fallback="/borrow-money" />
      <p className={styles.bar}>
        您正在访问{productName}（{check.host}）的页面，由该机构提供服务
      </p>
      {!loaded && <PageLoading />}
      <iframe
        className={styles.frame}
        src={check.url}
        title={productName}
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
        referrerPolicy="strict-origin-when-cross-origin"
        onLoad={() => setLoaded(true)}
        style={loaded ? undefined : { visibility: 'hidden' }}
      />
    </main>
  );
}
