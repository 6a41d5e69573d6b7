import { fenToYuanText } from '@lm/shared/money';
import { describe, expect, it } from 'vitest';
import { baidu } from './baidu.ts';
import { kuaishou } from './kuaishou.ts';
import { oceanengine } from './oceanengine.ts';
import { tencent } from './tencent.ts';
import type { ReportToSend } from './types.ts';

const at = new Date('2026-12-05T10:00:00.123Z');
const base: Omit<ReportToSend, 'platform' | 'eventCode' | 'clickParams'> = {
  negative: false,
  valueFen: null,
  happenedAt: at,
  credentials: {},
  landingUrl: 'https://h5.example.cn/?adChannelCode=c1&bd_vid=BD1',
  nonce: 'r7a1',
  now: new Date('2026-12-05T10:00:05Z'),
};
const json = (b: string | undefined) => JSON.parse(b ?? '{}') as Record<string, unknown>;

describe('platform adapters (issue 47.3)', () => {
  it('Ocean Engine: clickid as context.ad.callback, ms time, the amount in yuan', () => {
    const r = oceanengine.request(
      {
        ...base,
        platform: 'oceanengine',
        eventCode: 'loan',
        clickParams: { clickid: 'C1', callback: 'B1' },
        valueFen: 1_234_567,
      },
      'https://sb/oe',
    );
    expect(r).toMatchObject({ method: 'POST', url: 'https://sb/oe/api/v2/conversion' });
    expect(json(r.body)).toEqual({
      event_type: 'loan',
      context: { ad: { callback: 'C1' } },
      timestamp: at.getTime(),
      properties: { pay_amount: 12345.67 },
    });
    const cb = oceanengine.request(
      { ...base, platform: 'oceanengine', eventCode: 'form', clickParams: { callback: 'B1' } },
      'b',
    );
    expect(json(cb.body)).toEqual({
      event_type: 'form',
      context: { ad: { callback: 'B1' } },
      timestamp: at.getTime(),
    });
  });

  it('Kuaishou: a GET with callback, event_type, event_time in ms, purchase_amount in yuan', () => {
    const r = kuaishou.request(
      {
        ...base,
        platform: 'kuaishou',
        eventCode: '11',
        clickParams: { callback: 'K 1&x' },
        valueFen: 500_000,
      },
      'https://sb/ks',
    );
    expect(r.method).toBe('GET');
    const u = new URL(r.url);
    expect(u.pathname).toBe('/ks/track/activate');
    expect(Object.fromEntries(u.searchParams)).toEqual({
      callback: 'K 1&x',
      event_type: '11',
      event_time: String(at.getTime()),
      purchase_amount: '5000.00',
    });
    expect(r.body).toBeUndefined();
  });

  it('Baidu: the token, the landing URL as logidUrl, newType as a number, the value in fen', () => {
    const r = baidu.request(
      {
        ...base,
        platform: 'baidu',
        eventCode: '3',
        clickParams: { bd_vid: 'BD1' },
        credentials: { token: 'TOKEN' },
        valueFen: 99,
      },
      'https://sb/bd',
    );
    expect(r.url).toBe('https://sb/bd/ocpcapi/api/uploadConvertData');
    expect(json(r.body)).toEqual({
      token: 'TOKEN',
      conversionTypes: [{ logidUrl: base.landingUrl, newType: 3, convertValue: 99 }],
    });
  });

  it('Baidu: a negative signal goes to uploadInvalidConvertData: the lead’s type, the time it corrects in s', () => {
    const r = baidu.request(
      {
        ...base,
        platform: 'baidu',
        eventCode: '3',
        negative: true,
        clickParams: { bd_vid: 'BD1' },
        credentials: { token: 'TOKEN' },
      },
      'https://sb/bd',
    );
    expect(r.url).toBe('https://sb/bd/ocpcapi/api/uploadInvalidConvertData');
    expect(json(r.body)).toEqual({
      token: 'TOKEN',
      invalidConversionTypes: [
        { logidUrl: base.landingUrl, convertType: 3, convertTime: Math.floor(at.getTime() / 1000) },
      ],
    });
  });

  it('Tencent: access_token, a timestamp in s and the nonce in the query; the click as trace.click_id', () => {
    const r = tencent.request(
      {
        ...base,
        platform: 'tencent',
        eventCode: 'CREDIT',
        clickParams: { qz_gdt: 'Q1' },
        credentials: { accountId: '123', userActionSetId: '456', accessToken: 'AT' },
        valueFen: 2_000_000,
      },
      'https://sb/tx',
    );
    const u = new URL(r.url);
    expect(u.pathname).toBe('/tx/v1.3/user_actions/add');
    expect(Object.fromEntries(u.searchParams)).toEqual({
      access_token: 'AT',
      timestamp: '1796464805',
      nonce: 'r7a1',
    });
    expect(json(r.body)).toEqual({
      account_id: 123,
      user_action_set_id: 456,
      actions: [
        {
          action_time: Math.floor(at.getTime() / 1000),
          action_type: 'CREDIT',
          trace: { click_id: 'Q1' },
          action_param: { value: 2_000_000 },
        },
      ],
    });
  });

  it('reads each platform’s answer: accepted, refused for good, worth another try', () => {
    expect(oceanengine.verdict(200, '{"code":0,"message":"成功"}')).toEqual({ ok: true });
    expect(oceanengine.verdict(200, '{"code":40001,"message":"callback 无效"}')).toEqual({
      ok: false,
      retry: false,
      error: '巨量引擎拒绝：40001 callback 无效',
    });
    expect(kuaishou.verdict(200, '{"result":1}')).toEqual({ ok: true });
    expect(kuaishou.verdict(200, '{"result":0,"error_msg":"bad"}')).toMatchObject({
      ok: false,
      retry: false,
    });
    expect(baidu.verdict(200, '{"header":{"status":0,"desc":"success"}}')).toEqual({ ok: true });
    expect(baidu.verdict(200, '{"header":{"status":4,"desc":"token invalid"}}')).toMatchObject({
      ok: false,
      retry: false,
    });
    expect(tencent.verdict(200, '{"code":0}')).toEqual({ ok: true });
    expect(tencent.verdict(200, '{"code":11000,"message":"access_token 过期"}')).toMatchObject({
      ok: false,
      retry: false,
    });
    for (const a of [oceanengine, kuaishou, baidu, tencent]) {
      expect(a.verdict(503, 'busy')).toEqual({ ok: false, retry: true, error: 'HTTP 503' });
      expect(a.verdict(429, '')).toMatchObject({ ok: false, retry: true });
      expect(a.verdict(400, '{"code":400,"msg":"缺少 token"}')).toMatchObject({ ok: false, retry: false });
      expect(a.verdict(302, '')).toMatchObject({ ok: false, retry: false });
      expect(a.verdict(200, '<html>')).toMatchObject({ ok: false, retry: true });
    }
  });

  it('writes fen as yuan without floating error', () => {
    expect(fenToYuanText(0)).toBe('0.00');
    expect(fenToYuanText(5)).toBe('0.05');
    expect(fenToYuanText(1_234_567)).toBe('12345.67');
    expect(fenToYuanText(-150)).toBe('-1.50');
  });
});
