/**
 * The app (routes, query client, root layout) and its first render (main.tsx, after startVisit).
 */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app';
import { handOffShell, SHELL_ID } from '@/app/shell';
import { setupAntdMobile } from '@/lib/antd-mobile';

export function startApp(): void {
  // The boot script stops watching the first scripts' loads (public/boot.js: retry, then a reload offer);
  // the parts loaded from here on are lib/chunk-load.ts's.
  document.documentElement.setAttribute('data-app', '');
  setupAntdMobile();
  const container = document.getElementById('root');
  if (!container) throw new Error('#root missing in index.html');
  // The first render is a transition: React renders it in slices of a few milliseconds, yielding to
  // the browser between them (a default-priority render is one task: 100–300 ms of main thread at
  // CPU ×4 for a landing, all of it blocking a tap; issue 17.4). Only the commit is one piece.
  const start = () => {
    const root = createRoot(container);
    startTransition(() =>
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    );
  };
  // A server-rendered screen (#lm-shell, shown by the boot script; ADR 065) paints first;
  // the app starts right after that frame, so the first paint never waits for the app, and takes the
  // shell's place once its page has rendered (app/shell.ts). A shell not shown is dropped at once.
  if (document.documentElement.dataset.shell && document.getElementById(SHELL_ID)) {
    requestAnimationFrame(() => setTimeout(start, 0));
  } else {
    handOffShell();
    start();
  }
}
