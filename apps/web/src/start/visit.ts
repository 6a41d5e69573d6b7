/**
 * What a visit needs (main.tsx, first) before the app renders — the channel of the ad link
 * (query, route code, stored; the server's inlined configuration on its pages), then the start-of-visit
 * analytics (the click report), and the real-user monitoring's context.
 */
import { STORAGE_KEYS } from '@/config/constants';
import { configureRum } from '@/features/rum/config';
import { startRumAfterPaint } from '@/features/rum/start';
import { startVisitAnalytics } from '@/lib/analytics/start';
import { bootstrapChannel } from '@/lib/channel/bootstrap';
import { useChannelStore } from '@/lib/channel/store';
import { storage } from '@/lib/storage';

export function startVisit(): void {
  // Spec §9: the legacy USER_INFO cache is dropped on every start.
  storage.remove(STORAGE_KEYS.userInfo);
  // Channel of the ad link (query, route code, stored), its h5Config, then the start-of-visit analytics.
  void bootstrapChannel().then(startVisitAnalytics, () => startVisitAnalytics(null));
  // Real-user monitoring (spec §9): Web Vitals tagged with channel and skin, loaded after the first paint.
  configureRum({
    channel: () => useChannelStore.getState().adChannelCode || null,
    skin: () => useChannelStore.getState().config.skin,
    fingerprint: () => storage.get(STORAGE_KEYS.visitorId) ?? '',
    enabled: () => !useChannelStore.getState().preview,
  });
  startRumAfterPaint();
}
