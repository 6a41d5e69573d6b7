import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
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
// A pre-rendered page (index.html / login.html, shown by the boot script) paints first; the app
// renders over it right after that frame, so the first paint never waits for the app.
if (document.documentElement.dataset.shell && container.querySelector('[data-shell]')) {
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  start();
}
