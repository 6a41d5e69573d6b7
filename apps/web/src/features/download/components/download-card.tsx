import type { AppPlatform } from '@lm/shared/schemas/site';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { useDownloadManifest } from '../api/get-download-manifest';
import { DEFAULT_DOWNLOAD_PAGE, useDownloadPageConfig } from '../api/get-download-page-config';
import { useNewestVersion } from '../api/get-newest-version';
import { getTempLink } from '../api/get-temp-link';
import { reportUserDownloadApp } from '../api/report-download';
import { APP_PLATFORM_LABELS } from '../constants';
import { inAppBrowserOf } from '../in-app-browser';
import { absoluteLink, appPlatformOf, safeDownloadUrl, versionLine } from '../platform';
import styles from './download.module.css';
import { OpenInBrowserHint } from './open-in-browser-hint';

export interface DownloadCardProps {
  /** The person tapped download (the page reports the analytics step "download app"). */
  onDownloadTap?(platform: AppPlatform): void;
  /** Offer a share link (GET /api/common/temp/link). */
  share?: boolean;
}

function AppIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect
        x="6"
        y="2.5"
        width="12"
        height="19"
        rx="2.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      />
      <path
        d="M12 7v7m-3-3 3 3 3-3M10 18h4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}

/**
 * The download card (spec §1 "optionally download the app"): the newest version of this phone's app
 * (GET /api/appVersion/newestVersion, then the app-download JSON with a timestamp for both
 * platforms), the copy of the `downloadPage` configuration, and the download button, which reports
 * GET /api/reportUserDownloadApp (silent) before leaving for the download address — or, in an in-app
 * browser that blocks app downloads (WeChat, Douyin …), shows how to open the page in the phone's browser.
 */
export function DownloadCard({ onDownloadTap, share = true }: DownloadCardProps) {
  const [userAgent] = useState(() => (typeof navigator === 'undefined' ? '' : navigator.userAgent));
  const platform = appPlatformOf(userAgent);
  const inApp = inAppBrowserOf(userAgent);
  const [hint, setHint] = useState(false);
  const newest = useNewestVersion(platform);
  const manifest = useDownloadManifest(newest.data?.manifestUrl);
  const page = useDownloadPageConfig();
  const [sharing, setSharing] = useState(false);
  const copy = page.data ?? DEFAULT_DOWNLOAD_PAGE;

  // The JSON is the file the app stores publish; the API answer stands in while it loads or fails.
  const current = manifest.data?.[platform] ?? newest.data ?? null;
  const otherPlatform: AppPlatform = platform === 'ios' ? 'android' : 'ios';
  const other = manifest.data?.[otherPlatform] ?? null;
  const downloadUrl = safeDownloadUrl(current?.downloadUrl);

  const download = () => {
    if (!downloadUrl) return;
    void reportUserDownloadApp(platform);
    onDownloadTap?.(platform);
    if (inApp) {
      setHint(true);
      return;
    }
    // Leave after the reports had a moment to start (both use keepalive).
    setTimeout(() => window.location.assign(downloadUrl), 150);
  };

  const shareLink = async () => {
    setSharing(true);
    try {
      const link = await getTempLink('download');
      const url = absoluteLink(link.url, window.location.origin);
      if (typeof navigator.share === 'function') {
        await navigator.share({ title: copy.title, text: copy.subtitle, url }).catch(() => undefined);
      } else if (navigator.clipboard) {
        await navigator.clipboard.writeText(url);
        toast.show('下载链接已复制，10分钟内有效');
      } else {
        toast.show({ content: `请复制链接：${url}`, duration: 5000 });
      }
    } catch {
      // The API client has said why.
    } finally {
      setSharing(false);
    }
  };

  if (newest.isLoading) {
    return <section className={`${styles.card} ${styles.skeleton}`} aria-busy="true" aria-label="下载App" />;
  }

  return (
    <section className={styles.card} aria-labelledby="download-card-title">
      <div className={styles.head}>
        <div className={styles.icon}>
          <AppIcon />
        </div>
        <div>
          <h2 id="download-card-title" className={styles.title}>
            {copy.title}
          </h2>
          <p className={styles.subtitle}>{copy.subtitle}</p>
        </div>
      </div>
      <ul className={styles.features}>
        {copy.features.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      {current ? (
        <>
          <p className={styles.version}>
            <strong>{APP_PLATFORM_LABELS[platform]}版</strong> {versionLine(current)}
            {other && (
              <>
                <br />
                {APP_PLATFORM_LABELS[otherPlatform]}版 {versionLine(other)}
              </>
            )}
          </p>
          {current.notes && <p className={styles.notes}>更新内容：{current.notes}</p>}
        </>
      ) : (
        <p className={styles.version}>{APP_PLATFORM_LABELS[platform]}版App即将上线，敬请期待</p>
      )}
      <div className={styles.actions}>
        <Button color="primary" shape="rounded" disabled={!downloadUrl} onClick={download}>
          {downloadUrl ? `下载${APP_PLATFORM_LABELS[platform]}版App` : '暂未开放下载'}
        </Button>
        {share && (
          <Button shape="rounded" loading={sharing} onClick={() => void shareLink()}>
            分享给好友
          </Button>
        )}
      </div>
      {hint && <OpenInBrowserHint platform={platform} onClose={() => setHint(false)} />}
    </section>
  );
}
