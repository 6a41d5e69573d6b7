import { Suspense, useEffect } from 'react';
import { Outlet, useMatches, useRouteError } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { PageState, pageStateActionClass } from '@/components/page-state';
import type { RouteHandle } from '../router';

const DEFAULT_TITLE = '借款超市';

function useDocumentTitle() {
  const matches = useMatches();
  const title = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    | RouteHandle
    | undefined;
  useEffect(() => {
    document.title = title?.title ?? DEFAULT_TITLE;
  }, [title]);
}

export function RootLayout() {
  useDocumentTitle();
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}

/** Shown when a page chunk fails to load (e.g. after a deploy) or a page throws. */
export function RouteError() {
  const error = useRouteError();
  const chunkFailed =
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed/i.test(error.message);
  return (
    <PageState
      title={chunkFailed ? '页面加载失败' : '页面出错了'}
      description={chunkFailed ? '网络不稳定，请刷新后重试' : '请刷新后重试'}
    >
      <button type="button" className={pageStateActionClass} onClick={() => window.location.reload()}>
        刷新页面
      </button>
    </PageState>
  );
}
