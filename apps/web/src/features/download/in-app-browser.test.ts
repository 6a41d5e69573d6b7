import { describe, expect, it } from 'vitest';
import { inAppBrowserOf, openInBrowserHint } from './in-app-browser';

const ANDROID =
  'Mozilla/5.0 (Linux; Android 10; V2036A Build/QP1A.190711.020; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 15_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';

describe('inAppBrowserOf', () => {
  it.each([
    [
      'wechat',
      `${ANDROID} Chrome/107.0.5304.141 Mobile Safari/537.36 XWEB/5023 MMWEBSDK/20230202 MicroMessenger/8.0.33.2320(0x28002151) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64`,
    ],
    ['wechat', `${IPHONE} MicroMessenger/8.0.38(0x1800262c) NetType/WIFI Language/zh_CN`],
    [
      'wecom',
      `${ANDROID} Chrome/89.0.4389.72 MQQBrowser/6.2 TBS/046011 Mobile Safari/537.36 wxwork/4.1.0 MicroMessenger/7.0.1 NetType/WIFI Language/zh`,
    ],
    [
      'qq',
      `${ANDROID} Chrome/89.0.4389.72 MQQBrowser/6.2 TBS/046237 Mobile Safari/537.36 V1_AND_SQ_8.9.58_4108_YYB_D QQ/8.9.58.11050 NetType/WIFI`,
    ],
    [
      'douyin',
      `${ANDROID} Chrome/75.0.3770.156 Mobile Safari/537.36 aweme_230400 JsSdk/1.0 NetType/WIFI Channel/douyin_tengxun_wzl_1108 app_version/23.4.0 ByteLocale/zh-CN`,
    ],
    ['douyin', `${IPHONE} aweme_24.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/zh Region/CN`],
    ['toutiao', `${ANDROID} Chrome/90.0.4430.91 Mobile Safari/537.36 NewsArticle/9.1.2 ToutiaoMicroApp/2.0`],
    [
      'kuaishou',
      `${ANDROID} Chrome/90.0.4430.226 KsWebView/1.8.90.599 Mobile Safari/537.36 Yoda/3.0.4 Kwai/11.2.30.33195 OS_PRO_BIT/64`,
    ],
    ['weibo', `${IPHONE} Weibo (iPhone14,5__weibo__13.6.1__iphone__os16.0)`],
    [
      'alipay',
      `${ANDROID} Chrome/69.0.3497.100 UWS/3.22.2.43 Mobile Safari/537.36 AlipayClient/10.5.36.7100 Language/zh-Hans`,
    ],
    [
      'dingtalk',
      `${IPHONE} AliApp(DingTalk/7.0.10) com.laiwang.DingTalk/28018424 Channel/201200 language/zh-Hans-CN`,
    ],
  ] as const)('names %s', (name, ua) => {
    expect(inAppBrowserOf(ua)).toBe(name);
  });

  it('names no in-app browser for the phone’s own browsers (they download)', () => {
    for (const ua of [
      `${IPHONE} Version/15.6 Mobile/15E148 Safari/604.1`,
      `${ANDROID.replace('; wv', '')} Chrome/120.0.0.0 Mobile Safari/537.36`,
      `${ANDROID} Chrome/89.0.4389.72 MQQBrowser/13.1 Mobile Safari/537.36 COVC/046237`,
      `${ANDROID} Chrome/78.0.3904.108 UCBrowser/15.3.6.1209 Mobile Safari/537.36`,
      `${ANDROID} Chrome/91.0.4472.114 HuaweiBrowser/12.0.4.301 Mobile Safari/537.36`,
      '',
    ]) {
      expect(inAppBrowserOf(ua)).toBeNull();
    }
  });
});

describe('openInBrowserHint', () => {
  it('names Safari on iOS and the browser on Android', () => {
    expect(openInBrowserHint('ios')).toContain('在Safari中打开');
    expect(openInBrowserHint('android')).toContain('在浏览器打开');
  });
});
