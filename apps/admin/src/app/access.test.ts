import { describe, expect, it } from 'vitest';
import { homeOf, mayOpen, PAGES, pageOf } from './access';

describe('console pages by role (issue 44.19)', () => {
  it('sends a channel partner to its funnel and staff to the overview', () => {
    expect(homeOf('channel_partner')).toBe('/funnel');
    expect(homeOf('viewer')).toBe('/');
    expect(homeOf('admin')).toBe('/');
  });

  it('lets a channel partner open only the funnel and its statements, by any address', () => {
    for (const path of [
      '/',
      '/channels',
      '/channels/12',
      '/channels/new',
      '/leads',
      '/leads/7',
      '/audit-log',
      '/roi',
      '/returns',
      '/spend-imports',
    ])
      expect(mayOpen('channel_partner', path), path).toBe(false);
    expect(mayOpen('channel_partner', '/funnel')).toBe(true);
    expect(mayOpen('channel_partner', '/funnel/')).toBe(true);
    expect(mayOpen('channel_partner', '/settlement')).toBe(true);
    expect(mayOpen('channel_partner', '/settlement/2026-11/channel/demo')).toBe(true);
  });

  it('keeps 账号管理 to admins; staff open every other page', () => {
    expect(mayOpen('viewer', '/staff')).toBe(false);
    expect(mayOpen('operator', '/staff')).toBe(false);
    expect(mayOpen('admin', '/staff')).toBe(true);
    for (const page of PAGES.filter((p) => p.path !== '/staff'))
      for (const role of ['admin', 'operator', 'viewer'] as const)
        expect(mayOpen(role, page.path)).toBe(true);
  });

  it('matches a page by whole path segments', () => {
    expect(pageOf('/channels/3').path).toBe('/channels');
    expect(pageOf('/privacy/deletions').path).toBe('/privacy/deletions');
    expect(pageOf('/funnelx').path).toBe('/');
  });
});
