import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router';
import { SiteFooter } from '@/components/site-footer';
import { useChannelStore, useH5Config } from '@/features/channel/store';
import { LoginPlaceholder } from '@/features/landing/components/login-placeholder';
import { RiskNotice } from '@/features/landing/components/risk-notice';
import { TrustBadges } from '@/features/landing/components/trust-badges';
import { LandingLayout } from '@/features/skins/components/landing-layout';
import { landingLayoutForSkin } from '@/features/skins/layouts';
import { DEFAULT_TITLE } from '../route-handle';
import styles from './routes.module.css';

// The form (antd-mobile inputs, the auth calls) is its own chunk: the headline paints without it.
const LoginForm = lazy(() =>
  import('@/features/auth/components/login-form').then((m) => ({ default: m.LoginForm })),
);

/**
 * `/` and `/download`: the channel's skin (spec §1) with the login form embedded. While the
 * configuration of a channel link loads, a neutral skeleton avoids flashing the default skin.
 */
export function LandingRoute() {
  const config = useH5Config();
  const status = useChannelStore((s) => s.status);
  const code = useChannelStore((s) => s.adChannelCode);
  const { search } = useLocation();
  // A channel link (or a route code still being exchanged) waits for its skin; a plain visit does not.
  const waiting =
    (status === 'loading' && code !== '') ||
    (status === 'idle' && new URLSearchParams(search).has('adRouteCode'));

  if (waiting) {
    return <main className={styles.landingSkeleton} aria-busy="true" aria-label="加载中" />;
  }

  return (
    <LandingLayout
      layout={landingLayoutForSkin(config.skin)}
      brand={config.title?.trim() || DEFAULT_TITLE}
      login={
        // A fixed-height slot: the pre-rendered placeholder and the form take the same room, so
        // nothing below moves (no layout shift, and the largest paint stays the pre-rendered one).
        <div className={styles.loginSlot}>
          <Suspense fallback={<LoginPlaceholder />}>
            <LoginForm submitText="立即申请" />
          </Suspense>
        </div>
      }
      trust={<TrustBadges />}
      notice={
        <RiskNotice announcementLink={<Link to="/clarification-announcement">查看《澄清公告》</Link>} />
      }
      footer={<SiteFooter companies={config.footer} />}
    />
  );
}
