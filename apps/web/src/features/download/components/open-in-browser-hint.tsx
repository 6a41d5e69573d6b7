import type { AppPlatform } from '@lm/shared/schemas/site';
import { useEffect, useRef } from 'react';
import { openInBrowserHint } from '../in-app-browser';
import styles from './open-in-browser-hint.module.css';

export interface OpenInBrowserHintProps {
  platform: AppPlatform;
  onClose(): void;
}

/**
 * Over the page in an in-app browser that blocks app downloads (WeChat, Douyin …): an arrow to the
 * app's "···" menu at the top right and what to choose there. A tap anywhere closes it.
 */
export function OpenInBrowserHint({ platform, onClose }: OpenInBrowserHintProps) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div
      className={styles.mask}
      role="dialog"
      aria-modal="true"
      aria-labelledby="open-in-browser-title"
      onClick={onClose}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <svg className={styles.arrow} viewBox="0 0 80 90" aria-hidden="true" focusable="false">
        <path
          d="M12 84 C 16 46, 36 22, 66 12 M 50 8 L 68 11 L 60 28"
          fill="none"
          stroke="currentColor"
          strokeWidth="4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <div className={styles.panel}>
        <h2 id="open-in-browser-title" className={styles.title}>
          请在浏览器中打开
        </h2>
        <p className={styles.text}>{openInBrowserHint(platform)}</p>
        <button ref={close} type="button" className={styles.close} onClick={onClose}>
          我知道了
        </button>
      </div>
    </div>
  );
}
