import type { ChannelAdminDetail } from '@lm/shared/schemas/admin-channels';
import { channelDraftBody } from '@lm/shared/schemas/admin-channels';
import { describe, expect, it } from 'vitest';
import { armShares, cityCodesFromPaths, draftFromForm, EMPTY_CHANNEL, formFromDetail } from './form';

const detail: ChannelAdminDetail = {
  id: 3,
  adChannelCode: 'c-3',
  name: '渠道三',
  channelStatus: 0,
  linkType: 2,
  skin: 12,
  flags: ['purple', 'formprocess3', 'baidu'],
  unknownFlags: [],
  skinArms: [
    { skin: 12, weight: 30 },
    { skin: 8, weight: 70 },
  ],
  excludeCityCodes: ['110100'],
  planTargetUrl: 'https://partner.example.com/a',
  pageTitle: null,
  pageIcon: null,
  needsLocation: true,
  trackReport: { platform: 'baidu', params: ['bd_vid'] },
  allowedHosts: ['partner.example.com'],
  operator: {
    code: 'xinghe',
    companyName: '北京星河融信信息技术有限公司',
    shortName: '星河融信',
    filingNumber: '京ICP备2026000001号',
  },
  routeCodes: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('channel form', () => {
  it('round-trips a saved channel into a draft the server accepts', () => {
    const form = formFromDetail(detail);
    expect(form).toMatchObject({
      colour: 'purple',
      flow: 'formprocess3',
      features: ['baidu'],
      abEnabled: true,
      enabled: false,
      operatorCode: 'xinghe',
    });
    const draft = draftFromForm(form);
    expect(draft).toMatchObject({
      channelStatus: 0,
      skin: 12,
      flags: ['purple', 'formprocess3', 'baidu'],
      skinArms: detail.skinArms,
      trackReport: detail.trackReport,
      planTargetUrl: 'https://partner.example.com/a',
      operatorCode: 'xinghe',
    });
    expect(channelDraftBody.safeParse(draft).success).toBe(true);
  });

  it('clears switched-off sections and empty texts', () => {
    const draft = draftFromForm({
      ...EMPTY_CHANNEL,
      name: ' 新渠道 ',
      planTargetUrl: '  ',
      trackPlatform: 'x',
      trackParams: ['a'],
    });
    expect(draft).toMatchObject({
      name: '新渠道',
      skinArms: null,
      trackReport: null,
      planTargetUrl: null,
      flags: [],
      // No operator picked: the configured default one (ADR 057).
      operatorCode: null,
    });
    expect(channelDraftBody.safeParse(draft).success).toBe(true);
  });

  it('computes arm shares and picker city codes', () => {
    expect(armShares([{ weight: 30 }, { weight: 70 }])).toEqual([30, 70]);
    expect(armShares([{ weight: 1 }, { weight: 2 }])).toEqual([33.3, 66.7]);
    expect(armShares([{ weight: null }, { weight: 0 }])).toEqual([0, 0]);
    expect(
      cityCodesFromPaths([
        ['110000', '110100'],
        ['440000', '440300'],
        ['440000', '440300'],
      ]),
    ).toEqual(['110100', '440300']);
  });
});
