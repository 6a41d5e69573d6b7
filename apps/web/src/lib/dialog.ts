import { loadChunk } from './chunk-load';

/**
 * antd-mobile's Dialog (with its popup and animation library, ~24 KB gzipped) loaded when a dialog is
 * due — a confirmation after a tap — not with the pages that may show one (issue 46.5: a page's cold
 * load). Through loadChunk: a lost network waits and retries as for a page.
 */
export const loadDialog = () =>
  loadChunk(() => import('antd-mobile/es/components/dialog')).then((m) => m.default);
