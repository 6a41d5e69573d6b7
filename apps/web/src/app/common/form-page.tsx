import { type ReactNode, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useReportStep } from '@/features/analytics/use-report-step';
import { useChannelStore, useH5Config } from '@/features/channel/store';
import { pickAgreements } from './agreements';
import { ApplicationForm, type ApplicationFormLayout } from './application-form';
import { AuthorizeList } from './authorize-list';
import styles from './forms.module.css';
import {
  MATCH_SESSION_KEYS,
  type MatchedProduct,
  parseMatchedProducts,
  storeMatch,
} from './matched-products';
import { readQueryOptions } from './query-options';
import { useDelayedNavigate } from './use-delayed-navigate';

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
}

/** An application-form page: header, banner, the form, and what happens after saving. */
export function FormPage({ title, banner, layout, submitText, next, intro }: FormPageProps) {
  const config = useH5Config();
  const adChannelCode = useChannelStore((s) => s.adChannelCode);
  const { search } = useLocation();
  const go = useDelayedNavigate();
  // A re-match link (spec §4 step 6) carries the match result: list it instead of the form.
  const fromLink = useMemo(() => parseMatchedProducts(readQueryOptions(search).rqResult), [search]);
  const [products, setProducts] = useState<MatchedProduct[]>(fromLink);
  const authorizing = next === 'authorize-here' && products.length > 0;
  useReportStep(authorizing ? 'visit_authorization' : 'visit_form');

  const agreements = pickAgreements(config.agreements, ['information-agreement', 'info-audit-agreement']);
  const onSaved = (result: unknown) => {
    storeMatch(MATCH_SESSION_KEYS.productMatchInfo, result);
    if (next !== 'authorize-here') {
      go(next);
      return;
    }
    const matched = parseMatchedProducts(result);
    if (matched.length > 0) {
      setProducts(matched);
      window.scrollTo({ top: 0 });
    } else {
      go(config.flowRoutes.success, { replace: true });
    }
  };

  if (authorizing) {
    return (
      <main className={styles.page}>
        <PageHeader title="选择借款机构" />
        <AuthorizeList
          products={products}
          adChannelCode={adChannelCode}
          agreement={agreements[0]!}
          onAuthorized={() => go(config.flowRoutes.success, { replace: true })}
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
      />
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
