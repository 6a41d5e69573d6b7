import Button from 'antd-mobile/es/components/button';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { PrimaryButton } from '@/components/primary-button';
import { ResultView } from '@/components/result-view';
import { applyStatusAction } from '@/features/consent/apply-status';
import { showApplyStatusModal } from '@/features/consent/apply-status-modal';
import { type ConsentedItem, normalizePartnerUrl, readConsents } from '@/features/consent/consent-result';
import { MATCH_SESSION_KEYS, readStoredMatch } from '@/features/consent/matched-products';
import { readQueryOptions, withQuery } from '@/features/consent/query-options';
import { consentModeText, resultContent } from '@/features/consent/result-content';
import { RetentionPopup } from '@/features/download/components/retention-popup';
import { reportStep } from '@/lib/analytics/reporter';
import { useReportStep } from '@/lib/analytics/use-report-step';
import { resolveRedirect } from '@/lib/channel/redirect';
import { useH5Config } from '@/lib/channel/store';
import styles from '@/styles/forms.module.css';

function ConsentList({ consents }: { consents: readonly ConsentedItem[] }) {
  const navigate = useNavigate();
  return (
    <section className={styles.consents} aria-label="已授权机构">
      <h2>已授权机构</h2>
      <ul>
        {consents.map((c) => {
          const url = c.mode === 'h5Redirect' ? normalizePartnerUrl(c.thirdpartyTargetUrl) : null;
          return (
            <li key={c.productId} className={styles.consent}>
              <div className={styles.consentText}>
                <strong>{c.productName}</strong>
                {(c.lenderName || c.aprBps !== null) && (
                  <span>
                    {c.lenderName ?? ''}
                    {c.lenderName && c.aprBps !== null ? ' · ' : ''}
                    {c.aprBps !== null ? `年化利率 ${(c.aprBps / 100).toFixed(2)}%` : ''}
                  </span>
                )}
                <span>{consentModeText(c.mode)}</span>
                <Link to={withQuery('/information-agreement', { productId: c.productId, consented: 1 })}>
                  查看您同意的授权书
                </Link>
              </div>
              {url && (
                <Button
                  size="small"
                  color="primary"
                  shape="rounded"
                  onClick={() => navigate(withQuery('/inline-page', { url, productName: c.productName }))}
                >
                  去申请
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * The result page of a flow (spec §2 success options; result-content.ts): `isNotFormReq`,
 * `rePageShowType` (2: the app download guide), `revisit`, `isSpecialListCity`, and sold out
 * (`applyStatus=0` from a re-match: the APPLY_STATUS_MODAL alert on arrival; `soldOut=1` after the
 * form, whose page showed it), and an "already registered" re-match (`applyStatus=2`: the confirm,
 * from the stored productMatchInfo). The lenders consented to in
 * this session are listed; those whose own page continues the application get "去申请". After
 * registerLink (`registered`) it says the person registered and leads to the channel's plan target.
 * The retention popup asks at the first step back (its words say nothing of a lender when none got
 * anything).
 */
export function SuccessView() {
  const navigate = useNavigate();
  const { search } = useLocation();
  const options = useMemo(() => readQueryOptions(search), [search]);
  const consents = useMemo(() => readConsents(), []);
  const config = useH5Config();
  // The plan target as the server vouched for it (h5Config: safeTargetUrl), followed only to this site
  // or one of the channel's allowed hosts.
  const partner = useMemo(
    () =>
      resolveRedirect(config.planTargetUrl, {
        origin: window.location.origin,
        allowedHosts: config.allowedHosts,
      }),
    [config.planTargetUrl, config.allowedHosts],
  );
  const content = resultContent(options, consents, partner !== null);
  useReportStep('visit_result');
  const alerted = useRef(false);

  useEffect(() => {
    if (alerted.current) return;
    if (content.alertSoldOut) {
      alerted.current = true;
      void showApplyStatusModal({ applyStatus: 0 });
      return;
    }
    // The stored answer of the re-match, written by our code from our API (the lender's page is then
    // vouched for /inline-page); a link saying applyStatus=2 alone opens nothing.
    const stored = readStoredMatch(MATCH_SESSION_KEYS.productMatchInfo);
    if (content.confirmRegistered && applyStatusAction(stored).kind === 'registered') {
      alerted.current = true;
      void showApplyStatusModal(stored).then((after) => {
        if (after.next === 'inline') navigate(after.path, { replace: true });
      });
    }
  }, [content.alertSoldOut, content.confirmRegistered, navigate]);

  return (
    <>
      <ResultView
        status={content.status}
        title={content.title}
        description={content.description}
        actions={
          <>
            {content.showPartner && partner ? (
              <PrimaryButton
                onClick={() => {
                  if (partner.kind === 'external') window.location.assign(partner.url);
                  else navigate(partner.path);
                }}
              >
                前往合作机构继续申请
              </PrimaryButton>
            ) : content.showDownload ? (
              <PrimaryButton
                onClick={() => {
                  void reportStep('download_app');
                  navigate('/download');
                }}
              >
                下载App，随时查看进度
              </PrimaryButton>
            ) : (
              <PrimaryButton onClick={() => navigate('/borrow-money')}>查看更多借款产品</PrimaryButton>
            )}
            <Button block fill="none" onClick={() => navigate('/my', { replace: true })}>
              进入个人中心
            </Button>
          </>
        }
      >
        {content.showConsents && <ConsentList consents={consents} />}
      </ResultView>
      <section className={styles.tips}>
        <h2>温馨提示</h2>
        <ol>
          {content.lendersMayCall && <li>请保持手机畅通，合作机构可能通过电话或短信与您联系。</li>}
          <li>放款前不会收取任何费用，要求先交费的都是诈骗。</li>
          <li>
            借款额度与利率以机构审批为准，详见<Link to="/clarification-announcement">《澄清公告》</Link>。
          </li>
        </ol>
      </section>
      <RetentionPopup onShow={() => void reportStep('retention_popup')} copy={content.retention} />
    </>
  );
}
