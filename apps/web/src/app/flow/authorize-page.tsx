import { Button } from 'antd-mobile';
import { type ReactNode, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { pickAgreements } from '@/features/consent/agreements';
import { useApplyStatusOnArrival } from '@/features/consent/apply-status-modal';
import { AuthorizeList } from '@/features/consent/components/authorize-list';
import { useLinkedMatch } from '@/features/consent/linked-match';
import { pickMatch, readMatch } from '@/features/consent/matched-products';
import { readQueryOptions, stringOption } from '@/features/consent/query-options';
import { useReportAuthorizationPage } from '@/lib/analytics/use-report-step';
import { useChannelStore, useH5Config } from '@/lib/channel/store';
import styles from '@/styles/forms.module.css';
import { useAfterConsent } from './consent-flow';

interface AuthorizePageProps {
  title: string;
  /** sessionStorage key of the stored match (productMatchInfo, seconedProductMatchInfo). */
  sessionKey: string;
  /** Where to go after authorising. */
  successRoute: string;
  intro?: ReactNode;
  /** The second authorisation (never opens another; reports second_match_authorization). */
  second?: boolean;
}

/**
 * An authorisation page: lenders of the match the link names (its `matchKey`, or a partner's
 * `rqResult`: linked-match.ts) or of the stored match, each consented to separately; "暂无可授权的产品"
 * when there is nothing to authorise.
 */
export function AuthorizePage({
  title,
  sessionKey,
  successRoute,
  intro,
  second = false,
}: AuthorizePageProps) {
  const config = useH5Config();
  const storedCode = useChannelStore((s) => s.adChannelCode);
  const { search } = useLocation();
  const navigate = useNavigate();
  const afterConsent = useAfterConsent();
  const options = useMemo(() => readQueryOptions(search), [search]);
  const linked = useLinkedMatch(options, sessionKey);
  const match = useMemo(
    () => pickMatch(linked.result, readMatch(sessionKey)),
    // The stored match is read again once the link's has been loaded (and stored).
    [linked.result, sessionKey],
  );
  useReportAuthorizationPage(second);
  useApplyStatusOnArrival(linked.result);
  const [agreement] = pickAgreements(config.agreements, ['information-agreement']);
  const adChannelCode = stringOption(options.adChannelCode) ?? storedCode;

  return (
    <main className={styles.page}>
      <PageHeader title={title} fallback="/borrow-money" />
      {linked.loading ? (
        <output className={styles.loadingMatch}>正在读取匹配结果…</output>
      ) : (
        <AuthorizeList
          match={match}
          adChannelCode={adChannelCode}
          agreement={agreement!}
          intro={intro}
          onAuthorized={(answer) => afterConsent({ match, answer, adChannelCode, successRoute, second })}
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
      )}
    </main>
  );
}
