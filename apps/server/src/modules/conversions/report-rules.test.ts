import { AD_REPORT_STATUSES } from '@lm/shared/conversions';
import { describe, expect, it } from 'vitest';
import { clickRef, FOREIGN_CHANNEL_REFUSAL, readRefusal, replayRefusal } from './report-rules.ts';

describe('clickRef', () => {
  it('shows the last six characters of a long click id', () => {
    expect(clickRef('EQ0ZRGAx8kQXnUYd5mLkEACtZ2b')).toBe('…ACtZ2b');
    expect(clickRef('123456789012')).toBe('…789012');
  });
  it('shows at most half of a short one, and nothing of one character or none', () => {
    expect(clickRef('12345678901')).toBe('…78901');
    expect(clickRef('abcd')).toBe('…cd');
    expect(clickRef('ab')).toBe('…b');
    expect(clickRef('a')).toBe('…');
    expect(clickRef('')).toBe('…');
  });
});

describe('replayRefusal', () => {
  it('lets only a dead report be sent again, and says why not for every other status', () => {
    const answers = Object.fromEntries(AD_REPORT_STATUSES.map((s) => [s, replayRefusal(s)]));
    expect(answers).toEqual({
      pending: expect.stringContaining('等待发送'),
      sent: expect.stringContaining('已被广告平台接收'),
      dead: null,
      late: expect.stringContaining('超出广告平台的回传时限'),
    });
  });
});

describe('readRefusal', () => {
  it('lets admin, operator and viewer read any channel', () => {
    for (const role of ['admin', 'operator', 'viewer'])
      expect(readRefusal({ role, channelCodes: [] }, 'demo')).toBeNull();
  });
  it('lets a channel partner read its own channels only, unknown ones refused like foreign ones', () => {
    const partner = { role: 'channel_partner', channelCodes: ['demo', 'demo-skin9'] };
    expect(readRefusal(partner, 'demo-skin9')).toBeNull();
    expect(readRefusal(partner, 'demo-location')).toBe(FOREIGN_CHANNEL_REFUSAL);
    expect(readRefusal(partner, null)).toBe(FOREIGN_CHANNEL_REFUSAL);
    expect(readRefusal({ role: 'channel_partner', channelCodes: [] }, 'demo')).toBe(
      '账号未绑定渠道，请联系管理员',
    );
  });
});
