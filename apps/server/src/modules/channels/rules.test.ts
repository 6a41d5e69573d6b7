import { AGREEMENT_PAGES, FLOW_ROUTES, THEMES } from '@lm/shared/channel';
import { describe, expect, it } from 'vitest';
import { buildH5Config, type ChannelRow, channelDetail, safeTargetUrl } from './rules.ts';

const row: ChannelRow = {
  id: 7,
  adChannelCode: 'c1',
  name: '渠道一',
  channelStatus: 1,
  linkType: 2,
  flags: 'skin9-teal-formprocess3-jufu',
  excludeCityCodes: ['110100'],
  planTargetUrl: 'https://partner.example.com/x?a=1',
  pageTitle: '标题',
  pageIcon: 'data:image/svg+xml,x',
  needsLocation: true,
  trackReport: { platform: 'baidu', params: ['bd_vid'] },
  allowedHosts: ['partner.example.com'],
  footer: [{ companyName: '某公司', filingNumber: '京ICP备2026000009号' }],
  skinArms: null,
  createdAt: new Date(),
  updatedAt: new Date(),
};

describe('safeTargetUrl', () => {
  const hosts = ['partner.example.com'];
  it('keeps same-site paths and URLs on allowed hosts', () => {
    expect(safeTargetUrl('/login?adChannelCode=demo&from=plan', hosts)).toBe(
      '/login?adChannelCode=demo&from=plan',
    );
    expect(safeTargetUrl('https://partner.example.com/apply', hosts)).toBe(
      'https://partner.example.com/apply',
    );
    expect(safeTargetUrl('http://PARTNER.example.com/a', hosts)).toBe('http://PARTNER.example.com/a');
  });
  it('drops other hosts, protocol-relative and odd URLs', () => {
    expect(safeTargetUrl('https://evil.example.net/', hosts)).toBeNull();
    expect(safeTargetUrl('https://partner.example.com.evil.net/', hosts)).toBeNull();
    expect(safeTargetUrl('//evil.example.net/', hosts)).toBeNull();
    expect(safeTargetUrl('/\\evil.example.net/', hosts)).toBeNull();
    expect(safeTargetUrl('/a\nb', hosts)).toBeNull();
    expect(safeTargetUrl('javascript:alert(1)', hosts)).toBeNull();
    expect(safeTargetUrl('https://user:pw@partner.example.com/', hosts)).toBeNull();
    expect(safeTargetUrl('partner.example.com/apply', hosts)).toBeNull();
    expect(safeTargetUrl('', hosts)).toBeNull();
    expect(safeTargetUrl(null, hosts)).toBeNull();
  });
});

describe('buildH5Config', () => {
  it('maps a channel row', () => {
    const c = buildH5Config(row);
    expect(c).toMatchObject({
      adChannelCode: 'c1',
      name: '渠道一',
      linkType: 2,
      skin: 9,
      theme: 'teal',
      themeColor: THEMES.teal.primary,
      flow: 'formprocess3',
      flowRoutes: FLOW_ROUTES.formprocess3,
      flags: ['skin9', 'teal', 'formprocess3', 'jufu'],
      title: '标题',
      needsLocation: true,
      excludeCityCodes: ['110100'],
      planTargetUrl: 'https://partner.example.com/x?a=1',
    });
    expect(c.agreements).toHaveLength(AGREEMENT_PAGES.length);
    expect(c.agreements[0]).toEqual({
      key: 'register-agreement',
      title: '注册协议',
      path: '/register-agreement',
    });
    expect(channelDetail(c)).toEqual({
      adChannelCode: 'c1',
      channelStatus: 1,
      linkType: 2,
      excludeCityCodes: ['110100'],
      planTargetUrl: 'https://partner.example.com/x?a=1',
    });
  });
  it('drops a plan URL outside the allowed hosts', () => {
    expect(buildH5Config({ ...row, allowedHosts: [] }).planTargetUrl).toBeNull();
  });
  it('answers the default configuration without a channel', () => {
    expect(buildH5Config(null)).toMatchObject({
      adChannelCode: '',
      channelStatus: 1,
      linkType: 4,
      skin: 17,
      theme: 'red',
      themeColor: '#FF2C3E',
      flow: 'default',
      flowRoutes: FLOW_ROUTES.default,
      title: null,
      icon: null,
      planTargetUrl: null,
      trackReport: null,
      footer: [],
    });
  });
});
