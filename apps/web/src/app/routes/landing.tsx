import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { SiteFooter } from '@/components/site-footer';
import { useFirstInteraction } from '@/features/banners/first-interaction';
import { LoginPlaceholder } from '@/features/landing/components/login-placeholder';
import { RiskNotice } from '@/features/landing/components/risk-notice';
import { TrustBadges } from '@/features/landing/components/trust-badges';
import { loadChunk } from '@/features/rum/chunk-guard';
import { LandingLayout } from '@/features/skins/components/landing-layout';
import { landingLayoutForSkin } from '@/features/skins/layouts';
import { reportStep } from '@/lib/analytics/reporter';
import { useChannelStore, useH5Config } from '@/lib/channel/store';
import { DEFAULT_TITLE } from '../route-handle';
import { useLiveSessionForward } from '../sign-in/live-session';
import { loadPostLogin } from '../sign-in/load-post-login';
import styles from './routes.module.css';

// The form (antd-mobile inputs, the auth calls) is its own chunk: the headline paints without it.
// Each part's chunk goes through loadChunk: without a network it waits (网络连接错误) and is tried again,
// never an error page over the form (docs/decisions/058).
const LoginForm = lazy(() =>
  loadChunk(() => import('@/features/auth/components/login-form')).then((m) => ({ default: m.LoginForm })),
);
// Loaded after the first paint, never part of the landing's first load.
const DownloadCard = lazy(() =>
  loadChunk(() => import('@/features/download/components/download-card')).then((m) => ({
    default: m.DownloadCard,
  })),
);
const HomeDialog = lazy(() =>
  loadChunk(() => import('@/features/banners/components/home-dialog')).then((m) => ({
    default: m.HomeDialog,
  })),
);

/**
 * How long after mounting the extras (dialog banner, download card) start loading. The dialog is then
 * only fetched and preloaded: it opens at the visitor's first interaction (docs/decisions/016).
 */
const EXTRAS_DELAY_MS = 1200;

/**
 * True a moment after the first paint (false in the pre-render); then the device report goes out
 * (once per session, its own chunk: nothing of it in the landing's first load).
 */
function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => {
      setReady(true);
      void import('@/features/reporting/device').then((m) => m.reportDeviceOnce()).catch(() => undefined);
    }, EXTRAS_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return ready;
}

const reportBannerTap = (id: number) =>
  void import('@/features/reporting/client')
    .then((m) => m.reportClick('home_dialog_banner', { bannerId: id }))
    .catch(() => undefined);

/**
 * `/` and `/download` (`serverRendered`: the page the server renders, ADR 022/065):
 * the channel's skin (spec §1) with the login form embedded. While the
 * configuration of a channel link loads, a neutral skeleton avoids flashing the default skin.
 * After the first paint: the home dialog banner (once a day per channel; loaded then, shown at the
 * first scroll or tap outside the login card), the device report, and on /download the download card
 * below the login card.
 */
export function LandingRoute({ serverRendered = false }: { serverRendered?: boolean } = {}) {
  const config = useH5Config();
  const status = useChannelStore((s) => s.status);
  const code = useChannelStore((s) => s.adChannelCode);
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const afterPaint = useAfterFirstPaint();
  const loginSlot = useRef<HTMLDivElement>(null);
  const query = new URLSearchParams(search);
  // A channel link (or a route code still being exchanged) waits for its skin; a plain visit does not.
  const waiting = (status === 'loading' && code !== '') || (status === 'idle' && query.has('adRouteCode'));
  const channelSettled = status === 'ready' || status === 'failed';
  const isDownload = (pathname.replace(/\/+$/, '') || '/') === '/download';
  // Not over the first view, nor over the login form the ad brought the visitor to: the dialog waits
  // for a scroll or a tap elsewhere (and out of the LCP, which stops at the first input).
  const interacted = useFirstInteraction(loginSlot, !waiting);
  // A live session is not asked to log in again: it goes on at its next step (issue 16.5).
  const forwarding = useLiveSessionForward(search);

  if (waiting || forwarding) {
    return <main className={styles.landingSkeleton} aria-busy="true" aria-label="加载中" />;
  }

  return (
    <>
      <LandingLayout
        layout={landingLayoutForSkin(config.skin)}
        brand={config.title?.trim() || DEFAULT_TITLE}
        login={
          // A fixed-height slot: the pre-rendered placeholder and the form take the same room, so
          // nothing below moves (no layout shift, and the largest paint stays the pre-rendered one).
          <div ref={loginSlot} className={styles.loginSlot}>
            {serverRendered ? (
              // The server's page always holds the placeholder, as the app's first frame does (a form
              // the server had loaded already would be replaced by the placeholder, then the form).
              <LoginPlaceholder />
            ) : (
              <Suspense fallback={<LoginPlaceholder />}>
                <LoginForm loadAfterLogin={loadPostLogin} submitText="立即申请" />
              </Suspense>
            )}
          </div>
        }
        trust={
          <>
            {query.get('linkExpired') === '1' && (
              <output className={styles.note}>分享链接已过期，您仍可在本页直接申请</output>
            )}
            {isDownload && afterPaint && (
              <Suspense fallback={null}>
                <DownloadCard onDownloadTap={() => void reportStep('download_app')} />
              </Suspense>
            )}
            <TrustBadges />
          </>
        }
        notice={
          <RiskNotice announcementLink={<Link to="/clarification-announcement">查看《澄清公告》</Link>} />
        }
        footer={<SiteFooter companies={config.footer} />}
      />
      {afterPaint && channelSettled && (
        <Suspense fallback={null}>
          <HomeDialog
            channel={code}
            interacted={interacted}
            allowedHosts={config.allowedHosts}
            onRoute={(to) => navigate(to)}
            onInline={(url, title) =>
              navigate(`/inline-page?url=${encodeURIComponent(url)}&productName=${encodeURIComponent(title)}`)
            }
            onTap={(banner) => reportBannerTap(banner.id)}
          />
        </Suspense>
      )}
    </>
  );
}
