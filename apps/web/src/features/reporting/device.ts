/**
 * The device report at the start of a session: PUT /api/report/h5device?devicePlatForm once per
 * browser session (sessionStorage guard), with the screen, language, brand and the page's visibility.
 */
import { api } from '@/lib/api-client';
import { getDeviceBrand, isAppWebview } from '@/lib/device';
import { type KeyValueStore, sessionStore } from '@/lib/storage';

export const DEVICE_REPORTED_KEY = 'H5_DEVICE_REPORTED';

export type DevicePlatform = 'ios' | 'android' | 'harmony' | 'windows' | 'mac' | 'other';

/** The platform of a user agent (HarmonyOS before Android: its webviews also say Android). */
export function devicePlatformOf(userAgent: string): DevicePlatform {
  if (/iphone|ipad|ipod/i.test(userAgent)) return 'ios';
  if (/harmonyos|openharmony/i.test(userAgent)) return 'harmony';
  if (/android/i.test(userAgent)) return 'android';
  if (/windows/i.test(userAgent)) return 'windows';
  if (/macintosh|mac os x/i.test(userAgent)) return 'mac';
  return 'other';
}

export interface DeviceReport {
  devicePlatForm: DevicePlatform;
  data: Record<string, string | number | boolean>;
}

/** What is reported about this browser (nothing personal). */
export function describeDevice(env: {
  userAgent: string;
  screen: { width: number; height: number };
  pixelRatio: number;
  language: string;
  visibility: string;
  standalone: boolean;
}): DeviceReport {
  return {
    devicePlatForm: devicePlatformOf(env.userAgent),
    data: {
      brand: getDeviceBrand(env.userAgent),
      screen: `${Math.round(env.screen.width)}x${Math.round(env.screen.height)}`,
      dpr: Math.round(env.pixelRatio * 100) / 100,
      lang: env.language.slice(0, 16),
      visibility: env.visibility,
      appWebview: isAppWebview(env.userAgent),
      standalone: env.standalone,
    },
  };
}

/** Sends the device report unless this session already did; true when it was sent now. */
export async function reportDeviceOnce(
  store: KeyValueStore = sessionStore,
  send: (report: DeviceReport) => Promise<unknown> = (r) =>
    api.put(
      '/api/report/h5device',
      { data: r.data },
      {
        params: { devicePlatForm: r.devicePlatForm },
        silent: true,
        cancelPrevious: false,
      },
    ),
): Promise<boolean> {
  if (store.get(DEVICE_REPORTED_KEY)) return false;
  store.set(DEVICE_REPORTED_KEY, '1');
  const report = describeDevice({
    userAgent: navigator.userAgent,
    screen: window.screen,
    pixelRatio: window.devicePixelRatio || 1,
    language: navigator.language || '',
    visibility: document.visibilityState,
    standalone: window.matchMedia?.('(display-mode: standalone)').matches ?? false,
  });
  try {
    await send(report);
    return true;
  } catch {
    // Not reported: a later page of this session may try again.
    store.remove(DEVICE_REPORTED_KEY);
    return false;
  }
}
