import { type ReactNode, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useAutoFormStore } from '@/features/application-form/auto-form-store';
import {
  ApplicationForm,
  type ApplicationFormLayout,
  type FormValues,
} from '@/features/application-form/components/application-form';
import type { WorkCitySuggestion } from '@/features/application-form/located-work-city';
import { pickAgreements } from '@/features/consent/agreements';
import { showApplyStatusModal, useApplyStatusOnArrival } from '@/features/consent/apply-status-modal';
import { AuthorizeList } from '@/features/consent/components/authorize-list';
import { useLinkedMatch } from '@/features/consent/linked-match';
import {
  MATCH_SESSION_KEYS,
  type ParsedMatch,
  parseMatch,
  storeMatch,
} from '@/features/consent/matched-products';
import { readQueryOptions, withQuery } from '@/features/consent/query-options';
import { delayBefore } from '@/features/flow/waiting-pages';
import { fetchExcludeCity } from '@/features/location/api/fetch-exclude-city';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';
import { reportStep } from '@/lib/analytics/reporter';
import { useReportStep } from '@/lib/analytics/use-report-step';
import { useChannelStore, useH5Config } from '@/lib/channel/store';
import styles from '@/styles/forms.module.css';
import { useAfterConsent } from './consent-flow';
import { RequireLogin } from './require-login';

interface FormPageProps {
  title: string;
  /** Header area above the form (the variant's banner). */
  banner: ReactNode;
  layout?: ApplicationFormLayout;
  submitText?: string;
  /**
   * After a save: a route to go to, or `'authorize-here'` for flows whose form route also re-matches
   * and authorises (fenqile, formprocess4): the matched lenders are listed on this page.
   */
  next: string | 'authorize-here';
  intro?: ReactNode;
  /** An earlier draft's answers to start from (coverStatus=1). */
  prefill?: FormValues;
  /** The work city to start with (default: the visitor's city by the IP, `locatedWorkCity`). */
  suggestWorkCity?: () => Promise<WorkCitySuggestion | null>;
}

/** The visitor's city by the IP (no coordinates: no permission prompt), for the form's work city. */
export async function locatedWorkCity(): Promise<WorkCitySuggestion | null> {
  const { cityCode } = await fetchExcludeCity({});
  return cityCode ? { cityCode, source: 'network' } : null;
}

/**
 * An application-form page: header, banner, the form, and what happens after saving. It needs a
 * session: a visitor without one logs in first and comes back here (issue 16.4), before typing
 * anything the submit would then refuse.
 */
export function FormPage(props: FormPageProps) {
  return (
    <RequireLogin>
      <LoggedInFormPage {...props} />
    </RequireLogin>
  );
}

function LoggedInFormPage({
  title,
  banner,
  layout,
  submitText,
  next,
  intro,
  prefill,
  suggestWorkCity = locatedWorkCity,
}: FormPageProps) {
  const config = useH5Config();
  const adChannelCode = useChannelStore((s) => s.adChannelCode);
  const { search } = useLocation();
  const go = useDelayedNavigate();
  const afterConsent = useAfterConsent();
  // The automatic form's pre-selected answers (Haier), shown for the person to confirm or change.
  const autoAnswers = useAutoFormStore((s) => (s.status === 'success' ? s.answers : null));
  // A re-match link (spec §4 step 6) names the match (its matchKey, or a partner's rqResult): list it
  // instead of the form.
  const options = useMemo(() => readQueryOptions(search), [search]);
  const linked = useLinkedMatch(options, MATCH_SESSION_KEYS.productMatchInfo).result;
  const [match, setMatch] = useState<ParsedMatch>(() => parseMatch(linked));
  // A key's match arrives after the first render.
  const [shown, setShown] = useState(linked);
  if (linked !== shown) {
    setShown(linked);
    if (parseMatch(linked).products.length > 0) setMatch(parseMatch(linked));
  }
  useApplyStatusOnArrival(linked);
  const authorizing = next === 'authorize-here' && match.products.length > 0;
  useReportStep(authorizing ? 'visit_authorization' : 'visit_form');

  const agreements = pickAgreements(config.agreements, ['information-agreement', 'info-audit-agreement']);
  const success = config.flowRoutes.success;
  const onSaved = async (result: unknown) => {
    // productMatchInfo: the whole match result, matchId included (the consent names its run).
    storeMatch(MATCH_SESSION_KEYS.productMatchInfo, result);
    useAutoFormStore.getState().resetForm();
    void reportStep('submit_form');
    const after = await showApplyStatusModal(result);
    if (after.next === 'inline') {
      go(after.path, { replace: true });
      return;
    }
    const parsed = parseMatch(result);
    if (after.next === 'result' || parsed.products.length === 0) {
      // Sold out (alert shown above) or nothing matched: no lender receives anything (isNotFormReq).
      go(withQuery(success, { isNotFormReq: 1, soldOut: after.next === 'result' ? 1 : undefined }), {
        replace: true,
      });
      return;
    }
    if (next !== 'authorize-here') {
      // The submitted form leaves the history (ADR 059): going back from the flow's later pages never
      // shows it again, blank, inviting a second application.
      // A waiting page is opened at once: it holds the navigation delay (issue 44.13).
      go(next, { replace: true, delayMs: delayBefore(next) });
      return;
    }
    setMatch(parsed);
    window.scrollTo({ top: 0 });
  };

  if (authorizing) {
    return (
      <main className={styles.page}>
        <PageHeader title="选择借款机构" />
        <AuthorizeList
          match={match}
          adChannelCode={adChannelCode}
          agreement={agreements[0]!}
          onAuthorized={(answer) => afterConsent({ match, answer, adChannelCode, successRoute: success })}
        />
      </main>
    );
  }

  return (
    <main className={styles.page}>
      <PageHeader title={title} />
      {banner}
      <ApplicationForm
        adChannelCode={adChannelCode}
        layout={layout}
        submitText={submitText}
        agreements={agreements}
        onSaved={onSaved}
        intro={intro}
        autoAnswers={autoAnswers}
        prefill={prefill}
        suggestWorkCity={suggestWorkCity}
      />
    </main>
  );
}

/**
 * A form page as pre-rendered into the HTML (src/prerender.tsx): header, banner and a placeholder in
 * the form's place, so the page paints before the app's JavaScript has loaded (a form taking input
 * before then would lose it). The app renders the page over it; the banner, the largest paint, is
 * the same.
 */
export function FormPageShell({ title, banner }: { title: string; banner: ReactNode }) {
  return (
    <main className={styles.page}>
      <PageHeader title={title} />
      {banner}
      <div className={styles.formPlaceholder} aria-hidden="true">
        <span />
        <span />
        <span />
        <span />
        <span />
        <span />
      </div>
    </main>
  );
}

/** The gradient banner most form pages open with. */
export function FormBanner({ title, text, badge }: { title: ReactNode; text: ReactNode; badge?: string }) {
  return (
    <header className={styles.banner}>
      {badge && <span className={styles.bannerBadge}>{badge}</span>}
      <h1 className={styles.bannerTitle}>{title}</h1>
      <p className={styles.bannerText}>{text}</p>
    </header>
  );
}
