import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStore } from '@/lib/storage';
import { chooseSender } from './client';
import { DEVICE_REPORTED_KEY, describeDevice, devicePlatformOf } from './device';

describe('reporting client', () => {
  it('uses a beacon only while the page is hidden and beacons exist', () => {
    expect(chooseSender('hidden', true)).toBe('beacon');
    expect(chooseSender('visible', true)).toBe('fetch');
    expect(chooseSender('hidden', false)).toBe('fetch');
  });
});

describe('device report', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names the platform of a user agent', () => {
    expect(devicePlatformOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('ios');
    expect(devicePlatformOf('Mozilla/5.0 (Linux; Android 14; V2302A) Mobile')).toBe('android');
    expect(devicePlatformOf('Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00) Mobile')).toBe('harmony');
    expect(devicePlatformOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('windows');
    expect(devicePlatformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)')).toBe('mac');
    expect(devicePlatformOf('curl/8')).toBe('other');
  });

  it('describes the device without anything personal', () => {
    const report = describeDevice({
      userAgent: 'Mozilla/5.0 (Linux; Android 14; HUAWEI P60) Mobile LoanMarketApp/2.3.0',
      screen: { width: 390.4, height: 844 },
      pixelRatio: 2.625,
      language: 'zh-CN',
      visibility: 'visible',
      standalone: false,
    });
    expect(report).toEqual({
      devicePlatForm: 'android',
      data: {
        brand: 'huawei',
        screen: '390x844',
        dpr: 2.63,
        lang: 'zh-CN',
        visibility: 'visible',
        appWebview: true,
        standalone: false,
      },
    });
  });

  it('is sent once per session, and again after a failure', async () => {
    const { reportDeviceOnce } = await import('./device');
    const store = memoryStore();
    const sent: string[] = [];
    const ok = async (r: { devicePlatForm: string }) => {
      sent.push(r.devicePlatForm);
    };
    const failing = async () => {
      throw new Error('offline');
    };
    // The test environment has no DOM: give the globals the report reads.
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (iPhone)', language: 'zh-CN' });
    vi.stubGlobal('window', { screen: { width: 375, height: 812 }, devicePixelRatio: 3 });
    vi.stubGlobal('document', { visibilityState: 'visible' });
    expect(await reportDeviceOnce(store, failing)).toBe(false);
    expect(store.get(DEVICE_REPORTED_KEY)).toBeNull();
    expect(await reportDeviceOnce(store, ok)).toBe(true);
    expect(await reportDeviceOnce(store, ok)).toBe(false);
    expect(sent).toEqual(['ios']);
  });
});
