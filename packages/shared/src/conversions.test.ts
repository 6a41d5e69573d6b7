import { describe, expect, it } from 'vitest';
import { AD_PLATFORMS } from './ad-clicks.ts';
import {
  AD_REPORT_STATUS_LABELS,
  AD_REPORT_STATUSES,
  CONVERSION_STEPS,
  conversionProblems,
  DEFAULT_EVENT_CODES,
  defaultEventMap,
  EVENT_CODE_PATTERNS,
  maskSecret,
  negativeEventCode,
  PLATFORM_REPORT_WINDOW_DAYS,
  REPORT_STEP_LABELS,
  reportDecision,
  withinReportWindow,
} from './conversions.ts';
import { channelConversionsBody } from './schemas/conversions.ts';

const ocean = { enabled: true, events: defaultEventMap('oceanengine') };

describe('event maps (issue 47.2)', () => {
  it('defaults: the documented codes, on where there is one, first time only, values on valued steps', () => {
    expect(defaultEventMap('oceanengine')).toEqual({
      register: {
        enabled: true,
        eventCode: 'active_register',
        firstOnly: true,
        minAmountFen: null,
        sendValue: false,
      },
      form: { enabled: true, eventCode: 'form', firstOnly: true, minAmountFen: null, sendValue: false },
      consent: { enabled: false, eventCode: '', firstOnly: true, minAmountFen: null, sendValue: false },
      credit: {
        enabled: true,
        eventCode: 'loan_credit',
        firstOnly: true,
        minAmountFen: null,
        sendValue: true,
      },
      loan: { enabled: true, eventCode: 'loan', firstOnly: true, minAmountFen: null, sendValue: true },
    });
    expect(defaultEventMap('baidu').form).toMatchObject({ enabled: true, eventCode: '3' });
    expect(defaultEventMap('baidu').register.enabled).toBe(false);
  });

  it('every default code is written as its platform writes codes, and passes the body schema', () => {
    for (const p of AD_PLATFORMS) {
      for (const s of CONVERSION_STEPS) {
        const code = DEFAULT_EVENT_CODES[p][s];
        if (code) expect(EVENT_CODE_PATTERNS[p].pattern.test(code), `${p} ${s} ${code}`).toBe(true);
      }
      const parsed = channelConversionsBody.safeParse({
        enabled: true,
        platform: p,
        windowDays: 7,
        events: defaultEventMap(p),
      });
      expect(parsed.success, p).toBe(true);
    }
  });
});

describe('reportDecision (issue 47.2–47.5)', () => {
  it('reports a first step under its code', () => {
    expect(reportDecision(ocean, { step: 'register', earlier: 0, amountFen: null })).toEqual({
      report: true,
      eventCode: 'active_register',
      valueFen: null,
    });
  });
  it('not when the channel’s reporting is off', () => {
    expect(
      reportDecision({ ...ocean, enabled: false }, { step: 'form', earlier: 0, amountFen: null }),
    ).toEqual({
      report: false,
      reason: 'off',
    });
  });
  it('not when the step is off or has no code', () => {
    expect(reportDecision(ocean, { step: 'consent', earlier: 0, amountFen: null })).toEqual({
      report: false,
      reason: 'step',
    });
    const noCode = { ...ocean, events: { ...ocean.events, form: { ...ocean.events.form, eventCode: '' } } };
    expect(reportDecision(noCode, { step: 'form', earlier: 0, amountFen: null })).toEqual({
      report: false,
      reason: 'step',
    });
  });
  it('a repeat of a first-only step is not reported; of an every-time step it is', () => {
    expect(reportDecision(ocean, { step: 'loan', earlier: 1, amountFen: 500_000 })).toEqual({
      report: false,
      reason: 'repeat',
    });
    const every = { ...ocean, events: { ...ocean.events, loan: { ...ocean.events.loan, firstOnly: false } } };
    expect(reportDecision(every, { step: 'loan', earlier: 1, amountFen: 500_000 })).toEqual({
      report: true,
      eventCode: 'loan',
      valueFen: 500_000,
    });
  });
  it('an amount below the minimum, or none where a minimum is set, is not reported', () => {
    const min = {
      ...ocean,
      events: { ...ocean.events, loan: { ...ocean.events.loan, minAmountFen: 100_000 } },
    };
    expect(reportDecision(min, { step: 'loan', earlier: 0, amountFen: 99_999 })).toEqual({
      report: false,
      reason: 'below-minimum',
    });
    expect(reportDecision(min, { step: 'loan', earlier: 0, amountFen: null })).toEqual({
      report: false,
      reason: 'below-minimum',
    });
    expect(reportDecision(min, { step: 'loan', earlier: 0, amountFen: 100_000 })).toMatchObject({
      report: true,
      valueFen: 100_000,
    });
  });
  it('the value goes only when the step sends it', () => {
    const quiet = {
      ...ocean,
      events: { ...ocean.events, credit: { ...ocean.events.credit, sendValue: false } },
    };
    expect(reportDecision(quiet, { step: 'credit', earlier: 0, amountFen: 2_000_000 })).toEqual({
      report: true,
      eventCode: 'loan_credit',
      valueFen: null,
    });
  });
});

describe('conversionProblems', () => {
  const settings = { platform: 'tencent' as const, events: defaultEventMap('tencent') };
  const all = new Set(['accountId', 'userActionSetId', 'accessToken']);
  it('none when the capture matches and the credentials are there', () => {
    expect(conversionProblems(settings, { platform: 'tencent', params: ['gdt_vid'] }, all)).toEqual([]);
  });
  it('names a missing capture, another platform’s, one without the click parameter', () => {
    expect(conversionProblems(settings, null, all)[0]).toContain('渠道未开启广告回传');
    expect(conversionProblems(settings, { platform: 'baidu', params: ['bd_vid'] }, all)[0]).toContain(
      '不一致',
    );
    expect(conversionProblems(settings, { platform: 'tencent', params: ['other'] }, all)[0]).toContain(
      'gdt_vid 或 qz_gdt',
    );
  });
  it('names each missing credential, and no step on', () => {
    expect(
      conversionProblems(settings, { platform: 'tencent', params: ['qz_gdt'] }, new Set(['accountId'])),
    ).toEqual(['请填写腾讯广告（微信、QQ）的数据源 ID', '请填写腾讯广告（微信、QQ）的access_token']);
    const off = Object.fromEntries(
      CONVERSION_STEPS.map((s) => [s, { ...settings.events[s], enabled: false }]),
    ) as typeof settings.events;
    expect(
      conversionProblems({ ...settings, events: off }, { platform: 'tencent', params: ['gdt_vid'] }, all),
    ).toEqual(['没有开启任何回传事件']);
  });
  it('masks a secret to its last four characters', () => {
    expect(maskSecret('abcdefgh1234')).toBe('****1234');
  });
});

describe('withinReportWindow (issue 47.5)', () => {
  const click = new Date('2026-12-01T00:00:00Z');
  const after = (days: number, ms = 0) => new Date(click.getTime() + days * 86_400_000 + ms);
  it.each(AD_PLATFORMS)('%s: up to its window inclusive, not one millisecond later', (platform) => {
    const days = PLATFORM_REPORT_WINDOW_DAYS[platform];
    expect(withinReportWindow(platform, click, click)).toBe(true);
    expect(withinReportWindow(platform, click, after(days))).toBe(true);
    expect(withinReportWindow(platform, click, after(days, 1))).toBe(false);
  });
  it('Baidu takes a month, the others a week', () => {
    expect(withinReportWindow('baidu', click, after(20))).toBe(true);
    expect(withinReportWindow('oceanengine', click, after(8))).toBe(false);
  });
  it('labels every status', () => {
    expect(AD_REPORT_STATUSES.map((s) => AD_REPORT_STATUS_LABELS[s])).toEqual([
      '待回传',
      '已回传',
      '回传失败',
      '超出回传时限',
    ]);
  });
});

describe('negative signals (issue 47.3)', () => {
  it('Ocean Engine failed_lead, Baidu the lead’s own newType, none for Kuaishou and Tencent', () => {
    expect(negativeEventCode('oceanengine', 'form')).toBe('failed_lead');
    expect(negativeEventCode('baidu', '3')).toBe('3');
    expect(negativeEventCode('kuaishou', '9')).toBeNull();
    expect(negativeEventCode('tencent', 'COMPLETE_ORDER')).toBeNull();
    expect(REPORT_STEP_LABELS.invalid).toBe('无效线索（负向回传）');
    expect(REPORT_STEP_LABELS.loan).toBe('放款');
  });
});
