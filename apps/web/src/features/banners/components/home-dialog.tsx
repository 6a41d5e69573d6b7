import type { BannerData } from '@lm/shared/schemas/site';
import { useEffect, useId, useState } from 'react';
import { storage } from '@/lib/storage';
import { shanghaiDate } from '@/lib/time';
import { useHomeDialogBanner } from '../api/get-home-dialog-banner';
import { markHomeDialogShown, resolveBannerTarget, shouldShowHomeDialog } from '../rules';
import styles from './home-dialog.module.css';

export interface HomeDialogProps {
  /** The visitor's channel ('' when none): the banner and the once-a-day rule are per channel. */
  channel: string;
  /** The channel's allowed partner hosts (h5Config). */
  allowedHosts: readonly string[];
  /** A page of this site. */
  onRoute(to: string): void;
  /** An allowed partner page (opened through /inline-page). */
  onInline(url: string, title: string): void;
  /** Tapped (click report). */
  onTap?(banner: BannerData): void;
}

/**
 * The home dialog banner (GET /api/banner/homeDialogBanner): shown at most once per day and channel
 * on this device; a tap opens its target when that is a page of this site or an allowed partner page.
 */
export function HomeDialog({ channel, allowedHosts, onRoute, onInline, onTap }: HomeDialogProps) {
  const [today] = useState(() => shanghaiDate());
  const [due] = useState(() => shouldShowHomeDialog(storage, channel, today));
  const { data: banner } = useHomeDialogBanner(channel, due);
  const [open, setOpen] = useState(true);
  const [imageReady, setImageReady] = useState(false);
  const titleId = useId();

  // Counted as shown once the picture is on screen.
  useEffect(() => {
    if (banner && imageReady) markHomeDialogShown(storage, channel, today);
  }, [banner, imageReady, channel, today]);

  useEffect(() => {
    if (!open || !banner) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, banner]);

  if (!due || !banner || !open) return null;

  const target = resolveBannerTarget(banner.targetUrl, allowedHosts, window.location.origin);
  const tap = () => {
    onTap?.(banner);
    setOpen(false);
    if (target?.kind === 'route') onRoute(target.to);
    else if (target?.kind === 'inline') onInline(target.url, banner.title);
  };

  return (
    <div className={styles.mask} style={imageReady ? undefined : { visibility: 'hidden' }}>
      <div className={styles.dialog} role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <span id={titleId} hidden>
          {banner.title}
        </span>
        <button type="button" className={styles.imageButton} onClick={tap} aria-label={banner.title}>
          <img
            className={styles.image}
            src={banner.imageUrl}
            alt={banner.title}
            onLoad={() => setImageReady(true)}
            onError={() => setOpen(false)}
          />
        </button>
      </div>
      <button type="button" className={styles.close} onClick={() => setOpen(false)} aria-label="关闭">
        <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="M3 3l10 10M13 3 3 13" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
