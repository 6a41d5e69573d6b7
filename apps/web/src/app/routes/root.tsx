import { lazy, Suspense, useEffect, useLayoutEffect, useMemo } from 'react';
import { Outlet, useLocation, useMatches, useRouteError } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { PageState, pageStateActionClass } from '@/components/page-state';
import { STORAGE_KEYS } from '@/config/constants';
import { loadChunk } from '@/features/rum/chunk-guard';
import { applyTheme, resolveThemeColor, themeTokens } from '@/features/skins/theme';
import { useChannelStore, useH5Config } from '@/lib/channel/store';
import { storage } from '@/lib/storage';
import { type RouteHandle, resolveHead } from '../route-handle';
import { ShellHandoff, useShellHandoff } from '../shell';

const MainLayout = lazy(() =>
  loadChunk(() => import('./main-layout')).then((m) => ({ default: m.MainLayout })),
);

function setFavicon(href: string) {
  let link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  if (link.getAttribute('href') !== href) link.href = href;
}

/** Title and favicon of the current route and channel (spec §2). */
function useDocumentHead(handles: (RouteHandle | undefined)[]) {
  const config = useH5Config();
  const { search } = useLocation();
  const { title, icon } = resolveHead(handles, new URLSearchParams(search), config);
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => setFavicon(icon), [icon]);
}

/**
 * The channel colour on <html>, before paint so no page shows the wrong colour (spec §1). While a
 * channel's configuration loads, the colours boot.js set from the last visit stay; once loaded, they
 * are remembered for the next visit's first paint.
 */
function useChannelTheme() {
  const { themeColor, theme } = useH5Config();
  const status = useChannelStore((s) => s.status);
  const code = useChannelStore((s) => s.adChannelCode);
  const preview = useChannelStore((s) => s.preview);
  const tokens = useMemo(() => themeTokens(resolveThemeColor(themeColor, theme), theme), [themeColor, theme]);
  const settled = status === 'ready' || status === 'failed' || code === '';
  useLayoutEffect(() => {
    if (settled) applyTheme(document.documentElement, tokens);
  }, [tokens, settled]);
  useEffect(() => {
    if (status === 'ready' && !preview) {
      storage.set(STORAGE_KEYS.themeTokens, JSON.stringify({ channel: code, tokens }));
    }
  }, [status, preview, code, tokens]);
}

export function RootLayout() {
  const matches = useMatches();
  const handles = matches.map((m) => m.handle as RouteHandle | undefined);
  useDocumentHead(handles);
  useChannelTheme();
  const page = (
    <Suspense fallback={<PageLoading />}>
      <ShellHandoff />
      <Outlet />
    </Suspense>
  );
  if (!handles.some((h) => h?.mainLayout)) return page;
  return (
    <Suspense fallback={<PageLoading />}>
      <MainLayout>{page}</MainLayout>
    </Suspense>
  );
}

/**
 * Shown when a page throws, or when a page chunk still fails after the reload that follows a deploy
 * (features/rum/chunk-guard). A chunk that fails for want of a network never comes here: it waits.
 */
export function RouteError() {
  const error = useRouteError();
  useShellHandoff();
  const chunkFailed =
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|ChunkLoadError/i.test(
      `${error.name} ${error.message}`,
    );
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
