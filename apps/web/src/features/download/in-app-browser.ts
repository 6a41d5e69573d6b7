import type { AppPlatform } from '@lm/shared/schemas/site';

/**
 * The in-app browsers ad visitors land in (docs/h5.md, support matrix), from the user agent. They show our
 * pages in an embedded WebView and do not let a page start an app download — neither an APK nor, in most, a
 * jump to the App Store: the visitor has to open the page in the phone's browser (their "···" menu).
 */
export type InAppBrowser =
  | 'wecom'
  | 'wechat'
  | 'qq'
  | 'douyin'
  | 'toutiao'
  | 'kuaishou'
  | 'weibo'
  | 'alipay'
  | 'dingtalk';

/** First match wins: WeCom (企业微信) carries WeChat's MicroMessenger token too. */
const RULES: [InAppBrowser, RegExp][] = [
  ['wecom', /\bwxwork\//i],
  ['wechat', /\bMicroMessenger\//i],
  // The QQ app ("QQ/9.0.0"), not QQ Browser ("MQQBrowser/…"), which downloads.
  ['qq', /(^|[\s;(])QQ\/\d/],
  ['douyin', /\baweme|\bmusical_ly/i],
  ['toutiao', /\bNewsArticle\/|\bToutiaoMicroApp/i],
  ['kuaishou', /\bKwai|\bkuaishou/i],
  ['weibo', /__weibo__|\bWeibo\b/i],
  ['alipay', /\bAlipayClient\//i],
  ['dingtalk', /\bDingTalk\//i],
];

export function inAppBrowserOf(userAgent: string): InAppBrowser | null {
  for (const [name, pattern] of RULES) if (pattern.test(userAgent)) return name;
  return null;
}

/** What the "open in browser" hint says: the menu entry differs by platform. */
export function openInBrowserHint(platform: AppPlatform): string {
  return platform === 'ios'
    ? '点击右上角「···」，选择「在Safari中打开」，即可下载App'
    : '点击右上角「···」，选择「在浏览器打开」，即可下载App';
}
