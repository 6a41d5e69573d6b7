import * as site from '@lm/shared/schemas/site';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOWNLOAD_PAGE, readDownloadPageConfig } from './api/get-download-page-config';
import { APP_PLATFORM_LABELS, DOWNLOAD_PAGE_CODE } from './constants';
import { absoluteLink, appPlatformOf, safeDownloadUrl, versionLine } from './platform';

describe('download helpers', () => {
  it('picks the platform of the phone', () => {
    expect(appPlatformOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('ios');
    expect(appPlatformOf('Mozilla/5.0 (Linux; Android 14; HarmonyOS)')).toBe('android');
    expect(appPlatformOf('')).toBe('android');
  });

  it('opens https download addresses only', () => {
    expect(safeDownloadUrl('https://download.example.com/a.apk')).toBe('https://download.example.com/a.apk');
    expect(safeDownloadUrl('http://download.example.com/a.apk')).toBeNull();
    expect(safeDownloadUrl('javascript:alert(1)')).toBeNull();
    expect(safeDownloadUrl('https://u:p@x.example.com/')).toBeNull();
    expect(safeDownloadUrl(null)).toBeNull();
  });

  it('writes the version line in Shanghai days and absolute share links', () => {
    expect(versionLine({ version: '2.3.0', publishedAt: '2026-03-01T17:00:00Z' })).toBe(
      'v2.3.0 · 2026-03-02 更新',
    );
    expect(versionLine({ version: '2.3.0', publishedAt: 'x' })).toBe('v2.3.0');
    expect(absoluteLink('/api/common/temp/link/open?token=a.b', 'https://h5.example.cn')).toBe(
      'https://h5.example.cn/api/common/temp/link/open?token=a.b',
    );
    expect(absoluteLink('https://h5.example.cn/x', 'https://other')).toBe('https://h5.example.cn/x');
  });

  it('reads the download page configuration field by field', () => {
    expect(readDownloadPageConfig(undefined)).toEqual(DEFAULT_DOWNLOAD_PAGE);
    expect(readDownloadPageConfig({ title: '新标题', features: ['a', 3, ' '] })).toEqual({
      title: '新标题',
      subtitle: DEFAULT_DOWNLOAD_PAGE.subtitle,
      features: ['a'],
    });
  });
});

describe('constants', () => {
  it('are those of the server', () => {
    expect(DOWNLOAD_PAGE_CODE).toBe(site.DOWNLOAD_PAGE_CODE);
    expect(APP_PLATFORM_LABELS).toEqual(site.APP_PLATFORM_LABELS);
  });
});
