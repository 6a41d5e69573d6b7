import { Button } from 'antd-mobile';
import { type ReactNode, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useReportStep } from '@/features/analytics/use-report-step';
import { useChannelStore, useH5Config } from '@/features/channel/store';
import { pickAgreements } from './agreements';
import { AuthorizeList } from './authorize-list';
import styles from './forms.module.css';
import { type MatchedProduct, parseMatchedProducts, readMatchedProducts } from './matched-products';
import { readQueryOptions, stringOption } from './query-options';
import { useDelayedNavigate } from './use-delayed-navigate';

interface AuthorizePageProps {
  title: string;
  /** sessionStorage key of the stored match (productMatchInfo, seconedProductMatchInfo). */
  sessionKey: string;
  /** Where to go after authorising. */
  successRoute: string;
  intro?: ReactNode;
}

/**
 * An authorisation page: lenders from the link's `rqResult` option and the stored match, each consented
 * to separately; "暂无可授权的产品" when there is nothing to authorise.
 */
export function AuthorizePage({ title, sessionKey, successRoute, intro }: AuthorizePageProps) {
  const config = useH5Config();
  const storedCode = useChannelStore((s) => s.adChannelCode);
  const { search } = useLocation();
  const navigate = useNavigate();
  const go = useDelayedNavigate();
  const options = useMemo(() => readQueryOptions(search), [search]);
  const products = useMemo(() => {
    const all = new Map<string, MatchedProduct>();
    for (const p of [...parseMatchedProducts(options.rqResult), ...readMatchedProducts(sessionKey)]) {
      if (!all.has(p.id)) all.set(p.id, p);
    }
    return [...all.values()];
  }, [options, sessionKey]);
  useReportStep('visit_authorization');
  const [agreement] = pickAgreements(config.agreements, ['information-agreement']);

  return (
    <main className={styles.page}>
      <PageHeader title={title} fallback="/borrow-money" />
      <AuthorizeList
        products={products}
        adChannelCode={stringOption(options.adChannelCode) ?? storedCode}
        agreement={agreement!}
        intro={intro}
        onAuthorized={() => go(successRoute, { replace: true })}
        emptyAction={
          <Button
            color="primary"
            shape="rounded"
            onClick={() => navigate('/borrow-money', { replace: true })}
          >
            返回首页
          </Button>
        }
      />
    </main>
  );
}
