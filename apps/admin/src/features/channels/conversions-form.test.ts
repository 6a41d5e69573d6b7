import { defaultEventMap } from '@lm/shared/conversions';
import { type ChannelConversionsData, channelConversionsBody } from '@lm/shared/schemas/conversions';
import { describe, expect, it } from 'vitest';
import { conversionsBodyOf, conversionsFormOf, withPlatform } from './conversions-form';

const tencent: ChannelConversionsData = {
  channelId: 7,
  adChannelCode: 'c-7',
  configured: true,
  enabled: true,
  platform: 'tencent',
  windowDays: 7,
  events: {
    ...defaultEventMap('tencent'),
    credit: { ...defaultEventMap('tencent').credit, minAmountFen: 150_050 },
  },
  credentials: [
    { key: 'accountId', label: '广告主账户 ID', secret: false, set: true, shown: '123' },
    { key: 'userActionSetId', label: '数据源 ID', secret: false, set: true, shown: '456' },
    { key: 'accessToken', label: 'access_token', secret: true, set: true, shown: '****oken' },
  ],
  trackReport: { platform: 'tencent', params: ['gdt_vid'] },
  problems: [],
  updatedAt: '2026-12-05T10:00:00.000Z',
};

describe('the conversion settings form (issue 47.2)', () => {
  it('shows money in yuan and never a secret; saving unchanged sends no credentials and the same amounts', () => {
    const form = conversionsFormOf(tencent);
    expect(form.events.credit.minAmountYuan).toBe(1500.5);
    expect(form.credentials).toEqual({ accountId: '123', userActionSetId: '456', accessToken: '' });
    const body = conversionsBodyOf(form, tencent);
    expect(body.credentials).toBeUndefined();
    expect(body.events).toEqual(tencent.events);
    expect(channelConversionsBody.safeParse(body).success).toBe(true);
  });

  it('sends only what was changed: a typed secret, an edited id, an emptied id', () => {
    const form = conversionsFormOf(tencent);
    form.credentials = { accountId: '', userActionSetId: '789', accessToken: 'new-token-1234' };
    expect(conversionsBodyOf(form, tencent).credentials).toEqual({
      accountId: '',
      userActionSetId: '789',
      accessToken: 'new-token-1234',
    });
  });

  it('another platform brings its documented codes and asks for its own credentials', () => {
    const form = withPlatform(conversionsFormOf(tencent), 'baidu');
    expect(form.events.form).toMatchObject({ enabled: true, eventCode: '3' });
    expect(form.credentials).toEqual({});
    form.credentials = { token: 'baidu-token-1' };
    const body = conversionsBodyOf(form, tencent);
    expect(body).toMatchObject({ platform: 'baidu', credentials: { token: 'baidu-token-1' } });
    expect(channelConversionsBody.safeParse(body).success).toBe(true);
  });

  it('keeps amount settings off the steps that carry none, and rounds yuan to whole fen', () => {
    const form = conversionsFormOf(tencent);
    form.events.form = { ...form.events.form, minAmountYuan: 10, sendValue: true };
    form.events.loan = { ...form.events.loan, enabled: true, eventCode: ' PURCHASE ', minAmountYuan: 0.015 };
    const body = conversionsBodyOf(form, tencent);
    expect(body.events.form).toMatchObject({ minAmountFen: null, sendValue: false });
    expect(body.events.loan).toMatchObject({ eventCode: 'PURCHASE', minAmountFen: 2 });
  });
});
