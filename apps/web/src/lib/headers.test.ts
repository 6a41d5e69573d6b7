import { describe, expect, it } from 'vitest';
import { APP_WEBVIEW_UA_TOKEN, getDeviceBrand, getFingerprint, isAppWebview } from './device';
import { buildHeaders, type HeaderContext } from './headers';
import { memoryStore } from './storage';

const ctx = (over: Partial<HeaderContext> = {}): HeaderContext => ({
  token: null,
  channelCode: 'demo',
  deviceBrand: 'huawei',
  fingerprint: 'abc123',
  inAppWebview: false,
  trackReport: null,
  ...over,
});

describe('buildHeaders (spec §7)', () => {
  it('platform_param carries channel 0, the channel code, brand and fingerprint', () => {
    const h = buildHeaders(ctx());
    expect(JSON.parse(h.platform_param!)).toEqual({
      channel: 0,
      currentChannelCode: 'demo',
      deviceBrand: 'huawei',
      fingerprint: 'abc123',
    });
    expect(h.accessToken).toBeUndefined();
    expect(h.track_report).toBeUndefined();
  });

  it('inside the app webview: appType 3 and channel 1 in the same header (no second PLATFORM_PARAM)', () => {
    const h = buildHeaders(ctx({ inAppWebview: true }));
    expect(JSON.parse(h.platform_param!)).toMatchObject({
      appType: 3,
      channel: 1,
      currentChannelCode: 'demo',
    });
    expect(Object.keys(h).filter((k) => k.toLowerCase() === 'platform_param')).toHaveLength(1);
  });

  it('sends the token and track_report when present', () => {
    const h = buildHeaders(ctx({ token: 't0k', trackReport: { platform: 'oceanengine', clickid: 'c1' } }));
    expect(h.accessToken).toBe('t0k');
    expect(JSON.parse(h.track_report!)).toEqual({ platform: 'oceanengine', clickid: 'c1' });
  });

  it('header values are ASCII even for Chinese parameters', () => {
    const h = buildHeaders(ctx({ trackReport: { platform: 'baidu', kw: '借款' } }));
    expect(h.track_report).toBe('{"platform":"baidu","kw":"\\u501f\\u6b3e"}');
    expect(/^[\x20-\x7e]*$/.test(h.track_report!)).toBe(true);
    expect(JSON.parse(h.track_report!).kw).toBe('借款');
  });
});

describe('device', () => {
  it(`detects the app webview by the ${APP_WEBVIEW_UA_TOKEN} user-agent token`, () => {
    expect(isAppWebview('Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36 LoanMarketApp/2.3.0')).toBe(
      true,
    );
    expect(isAppWebview('Mozilla/5.0 (iPhone) Mobile/15E148 MicroMessenger/8.0')).toBe(false);
  });
  it('Honor counts as Huawei', () => {
    expect(getDeviceBrand('Mozilla/5.0 (Linux; Android 12; HONOR X40)')).toBe('huawei');
  });
  it('the fingerprint is VISITORID once computed, else empty', () => {
    expect(getFingerprint(memoryStore())).toBe('');
    expect(getFingerprint(memoryStore({ VISITORID: 'f1' }))).toBe('f1');
  });
});
