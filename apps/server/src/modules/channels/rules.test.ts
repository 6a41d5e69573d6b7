import { createHmac } from 'node:crypto';
import { AGREEMENT_PAGES, FLOW_ROUTES, THEMES } from '@lm/shared/channel';
import { describe, expect, it } from 'vitest';
import { DEFAULT_H5_CONFIG } from './fixtures.ts';
import {
  buildH5Config,
  type ChannelSource,
  channelDetail,
  hashFraction,
  pickArm,
  safeTargetUrl,
  validArms,
  withSkin,
} from './rules.ts';

/** The configured operator's record (OPERATOR_*): the footer of no channel and of one without an operator. */
const CONFIGURED = { companyName: '配置运营有限公司', filingNumber: '粤ICP备2026000099号' };

const row: ChannelSource = {
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
  operatorId: 3,
  operator: { companyName: '某公司', filingNumber: '京ICP备2026000009号' },
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
  it('maps a channel row; its footer is its operator’s record (ADR 057)', () => {
    const c = buildH5Config(row, CONFIGURED);
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
      footer: [{ companyName: '某公司', filingNumber: '京ICP备2026000009号' }],
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
    expect(buildH5Config({ ...row, allowedHosts: [] }, CONFIGURED).planTargetUrl).toBeNull();
  });
  it('answers the default configuration without a channel, its footer the configured operator', () => {
    expect(buildH5Config(null, CONFIGURED)).toMatchObject({
      ...DEFAULT_H5_CONFIG,
      trackReport: null,
      footer: [CONFIGURED],
    });
  });
  it('names the configured operator in the footer of a channel without one', () => {
    expect(buildH5Config({ ...row, operatorId: null, operator: null }, CONFIGURED).footer).toEqual([
      CONFIGURED,
    ]);
  });
});

describe('pickArm (A/B skin split)', () => {
  const key = Buffer.alloc(32, 4);
  const keyed = (visitor: string, code = 'ab-channel') =>
    createHmac('sha256', key).update(`arm\u0000${code}\u0000${visitor}`).digest('base64url');

  it('spreads 10 000 visitors within ±2 % of the weights', () => {
    for (const arms of [
      [
        { skin: 17, weight: 50 },
        { skin: 12, weight: 50 },
      ],
      [
        { skin: 8, weight: 10 },
        { skin: 9, weight: 30 },
        { skin: 10, weight: 60 },
      ],
      [
        { skin: 20, weight: 1 },
        { skin: 21, weight: 99 },
      ],
    ]) {
      const counts = new Map<number, number>();
      const n = 10_000;
      for (let i = 0; i < n; i++) {
        const arm = pickArm(arms, keyed(`visitor-${i}`));
        counts.set(arm.skin, (counts.get(arm.skin) ?? 0) + 1);
      }
      const total = arms.reduce((s, a) => s + a.weight, 0);
      for (const a of arms) {
        expect(Math.abs((counts.get(a.skin) ?? 0) / n - a.weight / total)).toBeLessThan(0.02);
      }
    }
  });

  it('is sticky: the same visitor and arms give the same arm; another channel is drawn apart', () => {
    const arms = [
      { skin: 17, weight: 50 },
      { skin: 12, weight: 50 },
    ];
    let differs = 0;
    for (let i = 0; i < 200; i++) {
      const a = pickArm(arms, keyed(`v${i}`));
      expect(pickArm(arms, keyed(`v${i}`))).toBe(a);
      if (pickArm(arms, keyed(`v${i}`, 'other-channel')).skin !== a.skin) differs++;
    }
    // Independent draws per channel: about half differ.
    expect(differs).toBeGreaterThan(60);
    expect(differs).toBeLessThan(140);
  });

  it('reads hex and base64url hashes and refuses short ones', () => {
    expect(hashFraction('000000000000')).toBe(0);
    expect(hashFraction('ffffffffffff')).toBeLessThan(1);
    expect(hashFraction('gAAAAAAA')).toBe(0.5);
    expect(() => hashFraction('abc')).toThrow();
    expect(() => pickArm([], 'x')).toThrow();
  });

  it('validArms needs two usable arms; withSkin answers the arm skin without the arms', () => {
    expect(validArms(null)).toBeNull();
    expect(validArms([{ skin: 12, weight: 10 }])).toBeNull();
    expect(
      validArms([
        { skin: 12, weight: 10 },
        { skin: 99, weight: 10 },
      ]),
    ).toBeNull();
    const config = buildH5Config(
      {
        ...row,
        skinArms: [
          { skin: 12, weight: 1 },
          { skin: 8, weight: 3 },
        ],
      },
      CONFIGURED,
    );
    expect(config.skinArms).toEqual([
      { skin: 12, weight: 1 },
      { skin: 8, weight: 3 },
    ]);
    const answered = withSkin(config, 8);
    expect(answered).not.toHaveProperty('skinArms');
    expect(answered.skin).toBe(8);
    expect(answered.flags).toEqual(['skin8', 'teal', 'formprocess3', 'jufu']);
    expect(answered.theme).toBe('teal');
  });
});
