import type { BannerData } from '@lm/shared/schemas/site';
import { shanghaiDay } from '@lm/shared/shanghai-day';
import { useEffect, useId, useState } from 'react';
import { storage } from '@/lib/storage';
import { useHomeDialogBanner } from '../api/get-home-dialog-banner';
import { markHomeDialogShown, resolveBannerTarget, shouldShowHomeDialog } from '../rules';
import styles from './home-dialog.module.css';

export interface HomeDialogProps {
  /** The visitor's channel ('' when none): the banner and the once-a-day rule are per channel. */
  channel: string;
  /**
   * The visitor has interacted with the page (useFirstInteraction): the dialog opens then, or as soon
   * as its picture is ready when that is later; until then it is only fetched and preloaded.
   */
  interacted: boolean;
  /** The channel's allowed partner hosts (h5Config). */
  allowedHosts: readonly string[];
  /** A page of this site. */
  onRoute(to: string): void;
  /** An allowed partner page (opened through /inline-page). */
  onInline(url: string, title: string): void;
  /** Tapped (click report). */
  onTap?(banner: BannerData): void;
}

type Preload = 'loading' | 'ready' | 'failed';

/** Downloads and decodes `src` off screen (no element in the page: nothing painted, no LCP entry). */
function usePreloadedImage(src: string | undefined): Preload {
  const [state, setState] = useState<{ src?: string; status: Preload }>({ status: 'loading' });
  useEffect(() => {
    if (!src) return;
    let live = true;
    const settle = (status: Preload) => {
      if (live) setState({ src, status });
    };
    const img = new Image();
    // Decoding is a bonus (the dialog then paints in one frame); a browser that cannot decode an
    // SVG ahead still has it loaded.
    img.onload = () =>
      void img
        .decode()
        .catch(() => undefined)
        .then(() => settle('ready'));
    img.onerror = () => settle('failed');
    img.src = src;
    return () => {
      live = false;
    };
  }, [src]);
  return state.src === src ? state.status : 'loading';
}

/**
 * The home dialog banner (GET /api/banner/homeDialogBanner): shown at most once per day and channel
 * on this device, at the visitor's first interaction with the page (docs/decisions/016); a tap opens
 * its target when that is a page of this site or an allowed partner page.
 */
export function HomeDialog({ channel, interacted, allowedHosts, onRoute, onInline, onTap }: HomeDialogProps) {
  const [today] = useState(() => shanghaiDay());
  const [due] = useState(() => shouldShowHomeDialog(storage, channel, today));
  const { data: banner } = useHomeDialogBanner(channel, due);
  const preload = usePreloadedImage(due ? banner?.imageUrl : undefined);
  const [phase, setPhase] = useState<'waiting' | 'open' | 'closed'>('waiting');
  const [imageShown, setImageShown] = useState(false);
  const titleId = useId();

  // Opens once both the interaction and the picture are there; stays open until closed.
  useEffect(() => {
    if (phase === 'waiting' && banner && preload === 'ready' && interacted) setPhase('open');
  }, [phase, banner, preload, interacted]);

  // Counted as shown once the picture is on screen.
  useEffect(() => {
    if (banner && imageShown) markHomeDialogShown(storage, channel, today);
  }, [banner, imageShown, channel, today]);

  const open = phase === 'open';
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setPhase('closed');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  if (!due || !banner || !open) return null;

  const target = resolveBannerTarget(banner.targetUrl, allowedHosts, window.location.origin);
  const tap = () => {
    onTap?.(banner);
    setPhase('closed');
    if (target?.kind === 'route') onRoute(target.to);
    else if (target?.kind === 'inline') onInline(target.url, banner.title);
  };

  return (
    <div className={styles.mask} style={imageShown ? undefined : { visibility: 'hidden' }}>
      <div className={styles.dialog} role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <span id={titleId} hidden>
          {banner.title}
        </span>
        <button type="button" className={styles.imageButton} onClick={tap} aria-label={banner.title}>
          <img
            className={styles.image}
            src={banner.imageUrl}
            alt={banner.title}
            onLoad={() => setImageShown(true)}
            onError={() => setPhase('closed')}
          />
        </button>
      </div>
      <button type="button" className={styles.close} onClick={() => setPhase('closed')} aria-label="关闭">
        <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="M3 3l10 10M13 3 3 13" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
