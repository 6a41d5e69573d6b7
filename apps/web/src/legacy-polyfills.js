// The DOM APIs the app calls that engines on the legacy build lack (Chrome 49–104, iOS 10–16.3; core-js
// covers the language): AbortController (Chrome 66, iOS 12.1; with fetch patched to reject when aborted),
// IntersectionObserver (Chrome 51, iOS 12.2), ResizeObserver (Chrome 64, iOS 13.4). Bundled into the
// legacy polyfills chunk only (vite.config.ts `additionalLegacyPolyfills`): a modern engine never loads it.
import 'abortcontroller-polyfill/dist/polyfill-patch-fetch';
import 'intersection-observer';
import ResizeObserver from 'resize-observer-polyfill';

if (typeof window.ResizeObserver !== 'function') window.ResizeObserver = ResizeObserver;
