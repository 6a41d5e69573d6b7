import { Button } from 'antd-mobile';
import { type ReactNode, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useReportStep } from '@/features/analytics/use-report-step';
import { useChannelStore, useH5Config } from '@/features/channel/store';
import { pickAgreements } from './agreements';
import { useApplyStatusOnArrival } from './apply-status-modal';
import { AuthorizeList } from './authorize-list';
import { useAfterConsent } from './consent-flow';
import styles from './forms.module.css';
import { pickMatch, readMatch } from './matched-products';
import { readQueryOptions, stringOption } from './query-options';

interface AuthorizePageProps {
  title: string;
  /** sessionStorage key of the stored match (productMatchInfo, seconedProductMatchInfo). */
  sessionKey: string;
  /** Where to go after authorising. */
  successRoute: string;
  intro?: ReactNode;
  /** The second authorisation (never opens another; reports re_authorization). */
  second?: boolean;
}

/**
 * An authorisation page: lenders from the link's `rqResult` option or the stored match, each consented
 * to separately; "暂无可授权的产品" when there is nothing to authorise.
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
  const match = useMemo(() => pickMatch(options.rqResult, readMatch(sessionKey)), [options, sessionKey]);
  useReportStep(second ? 're_authorization' : 'visit_authorization');
  useApplyStatusOnArrival(options.rqResult);
  const [agreement] = pickAgreements(config.agreements, ['information-agreement']);
  const adChannelCode = stringOption(options.adChannelCode) ?? storedCode;

  return (
    <main className={styles.page}>
      <PageHeader title={title} fallback="/borrow-money" />
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
    </main>
  );
}
