import Button from 'antd-mobile/es/components/button';
import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { pickAgreements } from '@/features/consent/agreements';
import { useApplyStatusOnArrival } from '@/features/consent/apply-status-modal';
import { SKIP_TO_RESULT } from '@/features/consent/authorize-hint';
import { AuthorizeList } from '@/features/consent/components/authorize-list';
import { useLinkedMatch } from '@/features/consent/linked-match';
import { pickMatch, readMatch } from '@/features/consent/matched-products';
import { readQueryOptions, stringOption } from '@/features/consent/query-options';
import { useReportAuthorizationPage } from '@/lib/analytics/use-report-step';
import { useChannelStore, useH5Config } from '@/lib/channel/store';
import styles from '@/styles/forms.module.css';
import { resultPathOf, useAfterConsent } from './consent-flow';

interface AuthorizePageProps {
  title: string;
  /** sessionStorage key of the stored match (productMatchInfo, seconedProductMatchInfo). */
  sessionKey: string;
  /** Where to go after authorising. */
  successRoute: string;
  /**
   * The second authorisation (never opens another; reports second_match_authorization). The first consent is
   * already given: 跳过，查看结果 and the back arrow lead to its result (ADR 059).
   */
  second?: boolean;
}

/**
 * An authorisation page: lenders of the match the link names (its `matchKey`, or a partner's
 * `rqResult`: linked-match.ts) or of the stored match, each consented to separately; "暂无可授权的产品"
 * when there is nothing to authorise.
 */
export function AuthorizePage({ title, sessionKey, successRoute, second = false }: AuthorizePageProps) {
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
  const result = second ? resultPathOf(successRoute) : null;
  const toResult = () => {
    if (result) navigate(result, { replace: true });
  };

  return (
    <main className={styles.page}>
      <PageHeader title={title} fallback="/borrow-money" backTo={result ?? undefined} />
      {linked.loading ? (
        <output className={styles.loadingMatch}>正在读取匹配结果…</output>
      ) : (
        <AuthorizeList
          match={match}
          adChannelCode={adChannelCode}
          agreement={agreement!}
          second={second}
          onAuthorized={(answer) => afterConsent({ match, answer, adChannelCode, successRoute, second })}
          secondaryAction={
            second ? (
              <Button block fill="none" onClick={toResult}>
                {SKIP_TO_RESULT}
              </Button>
            ) : undefined
          }
          emptyAction={
            second ? (
              <Button color="primary" shape="rounded" onClick={toResult}>
                查看申请结果
              </Button>
            ) : (
              <Button
                color="primary"
                shape="rounded"
                onClick={() => navigate('/borrow-money', { replace: true })}
              >
                返回首页
              </Button>
            )
          }
        />
      )}
    </main>
  );
}
