import { lazy, type ReactNode, Suspense } from 'react';
import { loadChunk } from '@/lib/chunk-load';

// antd-mobile's ErrorBlock carries its illustrations (~10 KB gzipped): loaded when a failure is shown,
// not with every page that might show one (issue 46.5). Until it is there — or if it cannot load, which
// is when a page failed for want of a network — the same words and actions without the picture.
const ErrorBlock = lazy(() => loadChunk(() => import('antd-mobile/es/components/error-block')));

export interface ErrorStateProps {
  title: string;
  description: ReactNode;
  /** The actions (e.g. 重新加载). */
  children?: ReactNode;
}

/** A part of a page that failed to load: what happened and what to do. */
export function ErrorState({ title, description, children }: ErrorStateProps) {
  const plain = (
    <div role="alert" style={{ padding: '24px 16px', textAlign: 'center' }}>
      <p style={{ margin: 0, fontSize: 16, fontWeight: 600 }}>{title}</p>
      <p style={{ margin: '8px 0 16px', color: 'var(--app-text-secondary, #666)', fontSize: 13 }}>
        {description}
      </p>
      {children}
    </div>
  );
  return (
    <Suspense fallback={plain}>
      <ErrorBlock status="default" title={title} description={description}>
        {children}
      </ErrorBlock>
    </Suspense>
  );
}
