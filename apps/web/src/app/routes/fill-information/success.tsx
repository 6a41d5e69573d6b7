import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { SuccessView } from '@/app/flow/success-view';
import { PageHeader } from '@/components/page-header';
import { readQueryOptions } from '@/features/consent/query-options';
import { resultPageTitle } from '@/features/consent/result-title';
import styles from '../routes.module.css';

/**
 * `/fill-information/success` with the options of spec §2, and the formprocess3 result page
 * `/fill-information-three/success-page` (the same page).
 */
export function FillInformationSuccessRoute() {
  const { search } = useLocation();
  const title = useMemo(() => resultPageTitle(readQueryOptions(search)), [search]);
  return (
    <main className={styles.page}>
      <PageHeader title={title} fallback="/borrow-money" />
      <SuccessView />
    </main>
  );
}
