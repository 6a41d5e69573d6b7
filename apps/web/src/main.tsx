import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { handOffShell, SHELL_ID } from './app/shell';
import { STORAGE_KEYS } from './config/constants';
import { startVisitAnalytics } from './features/analytics/start';
import { bootstrapChannel } from './features/channel/bootstrap';
import { useChannelStore } from './features/channel/store';
import { configureRum } from './features/rum/config';
import { startRumAfterPaint } from './features/rum/start';
import { setupAntdMobile } from './lib/antd-mobile';
import { storage } from './lib/storage';

// Spec §9: the legacy USER_INFO cache is dropped on every start.
storage.remove(STORAGE_KEYS.userInfo);
// Channel of the ad link (query, route code, stored), its h5Config, then the start-of-visit analytics.
void bootstrapChannel().then(startVisitAnalytics, () => startVisitAnalytics(null));
setupAntdMobile();
// Real-user monitoring (spec §9): Web Vitals tagged with channel and skin, loaded after the first paint.
configureRum({
  channel: () => useChannelStore.getState().adChannelCode || null,
  skin: () => useChannelStore.getState().config.skin,
  fingerprint: () => storage.get(STORAGE_KEYS.visitorId) ?? '',
  enabled: () => !useChannelStore.getState().preview,
});
startRumAfterPaint();

const container = document.getElementById('root');
if (!container) throw new Error('#root missing in index.html');
const start = () =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// A pre-rendered page (#lm-shell of index.html / login.html, shown by the boot script) paints first;
// the app starts right after that frame, so the first paint never waits for the app, and takes the
// shell's place once its page has rendered (app/shell.ts). A shell not shown is dropped at once.
if (document.documentElement.dataset.shell && document.getElementById(SHELL_ID)) {
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  handOffShell();
  start();
}
