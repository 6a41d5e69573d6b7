import { describe, expect, it } from 'vitest';
import { memoryStore } from '@/lib/storage';
import { markHomeDialogShown, resolveBannerTarget, shouldShowHomeDialog } from './rules';

describe('home dialog: once per day per channel', () => {
  it('shows once a Shanghai day for each channel', () => {
    const store = memoryStore();
    expect(shouldShowHomeDialog(store, 'demo', '2026-05-01')).toBe(true);
    markHomeDialogShown(store, 'demo', '2026-05-01');
    expect(shouldShowHomeDialog(store, 'demo', '2026-05-01')).toBe(false);
    // Another channel, or no channel, has its own showing.
    expect(shouldShowHomeDialog(store, 'demo-fenqile', '2026-05-01')).toBe(true);
    expect(shouldShowHomeDialog(store, '', '2026-05-01')).toBe(true);
    // The next day it shows again; older days are forgotten when a new one is written.
    expect(shouldShowHomeDialog(store, 'demo', '2026-05-02')).toBe(true);
    markHomeDialogShown(store, '', '2026-05-02');
    expect(JSON.parse(store.get('HOME_DIALOG_SHOWN')!)).toEqual({ '': '2026-05-02' });
  });

  it('treats unreadable storage as not shown', () => {
    expect(shouldShowHomeDialog(memoryStore({ HOME_DIALOG_SHOWN: '{oops' }), 'demo', '2026-05-01')).toBe(
      true,
    );
  });
});

describe('banner target', () => {
  const origin = 'https://h5.example.cn';
  const hosts = ['partner.example.com'];

  it('opens same-site paths as routes and allowed https pages inline', () => {
    expect(resolveBannerTarget('/advertising', hosts, origin)).toEqual({ kind: 'route', to: '/advertising' });
    expect(resolveBannerTarget('https://h5.example.cn/download?x=1', hosts, origin)).toEqual({
      kind: 'route',
      to: '/download?x=1',
    });
    expect(resolveBannerTarget('https://PARTNER.example.com/a', hosts, origin)).toEqual({
      kind: 'inline',
      url: 'https://partner.example.com/a',
    });
  });

  it('goes nowhere else', () => {
    for (const bad of [
      null,
      '',
      '//evil.example.net/x',
      '/\\evil.example.net',
      'http://partner.example.com/a',
      'https://evil.example.net/',
      'https://user:pw@partner.example.com/',
      'javascript:alert(1)',
      'not a url',
    ]) {
      expect(resolveBannerTarget(bad, hosts, origin), String(bad)).toBeNull();
    }
  });
});
