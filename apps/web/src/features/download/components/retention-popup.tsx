import Button from 'antd-mobile/es/components/button';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useBlocker, useNavigate } from 'react-router';
import { isBackNavigation } from '@/lib/back-navigation';
import { loadChunk } from '@/lib/chunk-load';
import { sessionStore } from '@/lib/storage';
import styles from './download.module.css';

export const RETENTION_SHOWN_KEY = 'RETENTION_POPUP_SHOWN';

// antd-mobile's CenterPopup (and its animation library, ~20 KB gzipped) loads when the popup is due, not
// with the result pages (issue 46.5).
const CenterPopup = lazy(() => loadChunk(() => import('antd-mobile/es/components/center-popup')));

/** Whether this browser session already showed the retention popup. */
export function retentionShown(store = sessionStore): boolean {
  return store.get(RETENTION_SHOWN_KEY) === '1';
}

export interface RetentionPopupProps {
  /** The popup opened (the page reports the analytics step "retention popup"). */
  onShow?(): void;
  /** "下载App": e.g. scroll to the download card (default: go to /download); the popup closes. */
  onDownload?(): void;
  /** What the popup says and its download button (default: the result is saved, the app shows its progress). */
  copy?: RetentionCopy;
}

export interface RetentionCopy {
  description: string;
  download: string;
}

export const RETENTION_COPY: RetentionCopy = {
  description: '您的申请结果已保存。下载App可实时查看审核进度，机构联系您时第一时间提醒。',
  download: '下载App，查看进度',
};

/**
 * The retention popup of the result pages: the first time in a browser session the person goes back
 * (the browser's back within this site, or the page's back arrow), the navigation waits and the popup
 * asks them to stay or get the app; 仍要离开 lets the navigation through. Other navigations (links,
 * buttons) are never held. A back press that leaves the site (the result page is this visit's first
 * entry: the form was replaced by the flow's pages, ADR 059) cannot be held by a page.
 */
export function RetentionPopup({ onShow, onDownload, copy = RETENTION_COPY }: RetentionPopupProps) {
  const navigate = useNavigate();
  const blocker = useBlocker(
    ({ historyAction, nextLocation }) => isBackNavigation(historyAction, nextLocation) && !retentionShown(),
  );
  const reported = useRef(false);
  const open = blocker.state === 'blocked';

  useEffect(() => {
    if (open && !reported.current) {
      reported.current = true;
      sessionStore.set(RETENTION_SHOWN_KEY, '1');
      onShow?.();
    }
  }, [open, onShow]);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <CenterPopup visible onMaskClick={() => blocker.reset?.()} aria-label="温馨提示">
        <div className={styles.popup}>
          <h2>确定要离开吗？</h2>
          <p>{copy.description}</p>
          <div className={styles.popupActions}>
            <Button
              block
              color="primary"
              shape="rounded"
              onClick={() => {
                blocker.reset?.();
                if (onDownload) onDownload();
                else navigate('/download');
              }}
            >
              {copy.download}
            </Button>
            <Button block shape="rounded" onClick={() => blocker.reset?.()}>
              留在本页
            </Button>
            <Button block fill="none" onClick={() => blocker.proceed?.()}>
              仍要离开
            </Button>
          </div>
        </div>
      </CenterPopup>
    </Suspense>
  );
}
