import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attributedClick, CLICK_PARAM_MAX, clickOfTrackReport, type SeenClick } from './ad-clicks.ts';

const header = (v: unknown) => JSON.stringify(v);

describe('clickOfTrackReport', () => {
  it('Ocean Engine: clickid preferred (landing-page attribution), both parameters kept', () => {
    expect(clickOfTrackReport(header({ platform: 'oceanengine', clickid: 'C1', callback: 'B1' }))).toEqual({
      platform: 'oceanengine',
      clickId: 'C1',
      params: { clickid: 'C1', callback: 'B1' },
    });
  });

  it('Ocean Engine with only a callback (monitoring link)', () => {
    expect(clickOfTrackReport(header({ platform: 'oceanengine', callback: 'B1' }))?.clickId).toBe('B1');
  });

  it('Kuaishou callback, Baidu bd_vid', () => {
    expect(clickOfTrackReport(header({ platform: 'kuaishou', callback: 'K' }))?.clickId).toBe('K');
    expect(clickOfTrackReport(header({ platform: 'baidu', bd_vid: 'V' }))?.clickId).toBe('V');
  });

  it('Tencent: gdt_vid before qz_gdt', () => {
    expect(clickOfTrackReport(header({ platform: 'tencent', qz_gdt: 'Q', gdt_vid: 'G' }))?.clickId).toBe('G');
    expect(clickOfTrackReport(header({ platform: 'tencent', qz_gdt: 'Q' }))?.clickId).toBe('Q');
  });

  it('keeps only the platform’s click parameters', () => {
    const click = clickOfTrackReport(
      header({ platform: 'baidu', bd_vid: 'V', phone: '13800000000', utm: 'x' }),
    );
    expect(click?.params).toEqual({ bd_vid: 'V' });
  });

  it('trims values; a blank one does not count', () => {
    expect(clickOfTrackReport(header({ platform: 'oceanengine', clickid: '  ', callback: ' B ' }))).toEqual({
      platform: 'oceanengine',
      clickId: 'B',
      params: { callback: 'B' },
    });
  });

  it('null without a header, for malformed JSON, a wrong shape, an unknown platform or no click parameter', () => {
    expect(clickOfTrackReport(undefined)).toBeNull();
    expect(clickOfTrackReport('')).toBeNull();
    expect(clickOfTrackReport(['a', 'b'])).toBeNull();
    expect(clickOfTrackReport('{not json')).toBeNull();
    expect(clickOfTrackReport('null')).toBeNull();
    expect(clickOfTrackReport(header({ clickid: 'C' }))).toBeNull();
    expect(clickOfTrackReport(header({ platform: 'oceanengine', clickid: 5 }))).toBeNull();
    expect(clickOfTrackReport(header({ platform: 'sogou', clickid: 'C' }))).toBeNull();
    expect(clickOfTrackReport(header({ platform: 'kuaishou', clickid: 'C' }))).toBeNull();
  });

  it('refuses an over-long value and an over-long header', () => {
    const long = 'x'.repeat(CLICK_PARAM_MAX + 1);
    expect(clickOfTrackReport(header({ platform: 'kuaishou', callback: long }))).toBeNull();
    expect(
      clickOfTrackReport(header({ platform: 'kuaishou', callback: 'K', pad: 'y'.repeat(9000) })),
    ).toBeNull();
  });

  it('never throws, and what it returns is a known platform’s click from the header’s own values', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.string()));
    const anyHeader = fc.oneof(
      fc.string(),
      fc
        .record(
          {
            platform: fc.oneof(fc.constantFrom('oceanengine', 'kuaishou', 'baidu', 'tencent'), fc.string()),
            clickid: value,
            callback: value,
            bd_vid: value,
            gdt_vid: value,
            qz_gdt: value,
            other: value,
          },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
    );
    fc.assert(
      fc.property(anyHeader, (raw) => {
        const click = clickOfTrackReport(raw);
        if (!click) return;
        const parsed = JSON.parse(raw) as Record<string, unknown>;
        expect(parsed.platform).toBe(click.platform);
        for (const [k, v] of Object.entries(click.params)) expect(String(parsed[k]).trim()).toBe(v);
        expect(Object.values(click.params)).toContain(click.clickId);
      }),
      { numRuns: 500 },
    );
  });

  it('reads \\u-escaped non-ASCII text as the H5 sends it', () => {
    const raw = '{"platform":"baidu","bd_vid":"\\u4e2d1"}';
    expect(clickOfTrackReport(raw)?.clickId).toBe('中1');
  });
});

describe('attributedClick', () => {
  const now = new Date('2026-12-05T12:00:00Z');
  const day = 86_400_000;
  const click = (id: number, daysAgo: number, extra: Partial<SeenClick> = {}): SeenClick => ({
    id,
    channelCode: 'demo',
    seenAt: new Date(now.getTime() - daysAgo * day),
    userId: null,
    ...extra,
  });
  const at = { userId: 7, channelCode: 'demo', now, windowDays: 7 };

  it('the last click within the window', () => {
    expect(attributedClick([click(1, 3), click(2, 1), click(3, 2)], at)?.id).toBe(2);
  });

  it('none outside the window; the window’s edge counts', () => {
    expect(attributedClick([click(1, 8)], at)).toBeNull();
    expect(attributedClick([click(1, 7)], at)?.id).toBe(1);
    expect(attributedClick([click(1, 1)], { ...at, windowDays: 0 })).toBeNull();
  });

  it('only the login’s channel', () => {
    expect(attributedClick([click(1, 1, { channelCode: 'other' })], at)).toBeNull();
  });

  it('not a click already credited to another person; one credited to this person again', () => {
    expect(attributedClick([click(1, 1, { userId: 8 }), click(2, 2)], at)?.id).toBe(2);
    expect(attributedClick([click(1, 1, { userId: 7 })], at)?.id).toBe(1);
  });

  it('not a click seen after the login', () => {
    expect(attributedClick([click(1, -1)], at)).toBeNull();
  });

  it('the same moment: the later record', () => {
    expect(attributedClick([click(4, 1), click(5, 1)], at)?.id).toBe(5);
  });

  it('none from nothing', () => {
    expect(attributedClick([], at)).toBeNull();
  });
});
