import { describe, expect, it } from 'vitest';
import {
  addWorkingDays,
  deviceSummary,
  exportFileName,
  groupSharing,
  isOverdue,
  isWorkingDay,
  maskIp,
  noticeOutcome,
  noticePayload,
  planWithdrawal,
  recordOutcome,
  type SharingRow,
  workingDaysLeft,
} from './rules.ts';

/** An instant given as Shanghai wall-clock time. */
const sh = (local: string) => new Date(`${local}+08:00`);
/** The end of a Shanghai day (its deadline instant): the next day's 00:00 Asia/Shanghai. */
const endOf = (day: string) => {
  const d = sh(`${day}T00:00:00`);
  return new Date(d.getTime() + 86_400_000);
};

describe('addWorkingDays (Asia/Shanghai, weekends skipped)', () => {
  // 2026-11-23 is a Monday.
  const week = [
    ['2026-11-23', 'Mon'],
    ['2026-11-24', 'Tue'],
    ['2026-11-25', 'Wed'],
    ['2026-11-26', 'Thu'],
    ['2026-11-27', 'Fri'],
    ['2026-11-28', 'Sat'],
    ['2026-11-29', 'Sun'],
  ] as const;

  it('15 working days from each day of a week ends on the right day (3 whole weeks later)', () => {
    // Weekday request: the 15th working day is three weeks later, same weekday.
    expect(addWorkingDays(sh('2026-11-23T10:00:00'), 15)).toEqual(endOf('2026-12-14'));
    expect(addWorkingDays(sh('2026-11-24T10:00:00'), 15)).toEqual(endOf('2026-12-15'));
    expect(addWorkingDays(sh('2026-11-25T10:00:00'), 15)).toEqual(endOf('2026-12-16'));
    expect(addWorkingDays(sh('2026-11-26T10:00:00'), 15)).toEqual(endOf('2026-12-17'));
    expect(addWorkingDays(sh('2026-11-27T10:00:00'), 15)).toEqual(endOf('2026-12-18'));
    // Weekend request: counting starts on Monday, so the 15th working day is the Friday two weeks on.
    expect(addWorkingDays(sh('2026-11-28T10:00:00'), 15)).toEqual(endOf('2026-12-18'));
    expect(addWorkingDays(sh('2026-11-29T10:00:00'), 15)).toEqual(endOf('2026-12-18'));
  });

  it('1 working day: the next weekday (Friday and the weekend roll to Monday)', () => {
    const next = [
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-30',
      '2026-11-30',
      '2026-11-30',
    ];
    week.forEach(([day], i) => {
      expect(addWorkingDays(sh(`${day}T12:00:00`), 1), day).toEqual(endOf(next[i]!));
    });
  });

  it('every count from 0 to 30 lands on a weekday and counts exactly that many weekdays', () => {
    for (const [day] of week) {
      const from = sh(`${day}T09:30:00`);
      for (let n = 0; n <= 30; n++) {
        const due = addWorkingDays(from, n);
        const dueDay = new Date(due.getTime() - 1 + 8 * 3600_000);
        if (n > 0) expect([1, 2, 3, 4, 5], `${day}+${n}`).toContain(dueDay.getUTCDay());
        // Counting the weekdays after the request day up to the due day gives n back.
        expect(workingDaysLeft(from, due), `${day}+${n}`).toBe(n);
      }
    }
  });

  it('uses the Shanghai calendar day, not the UTC one', () => {
    // 2026-11-27 23:30 Shanghai is still Friday there (15:30 UTC Friday) …
    expect(addWorkingDays(sh('2026-11-27T23:30:00'), 1)).toEqual(endOf('2026-11-30'));
    // … 2026-11-28 00:30 Shanghai is Saturday there although it is Friday 16:30 in UTC.
    expect(addWorkingDays(new Date('2026-11-27T16:30:00Z'), 1)).toEqual(endOf('2026-11-30'));
    // Monday 07:00 Shanghai is Sunday 23:00 UTC: one working day later is Tuesday.
    expect(addWorkingDays(new Date('2026-11-22T23:00:00Z'), 1)).toEqual(endOf('2026-11-24'));
  });

  it('the deadline is the end of the day in Shanghai (16:00 UTC)', () => {
    const due = addWorkingDays(sh('2026-11-23T10:00:00'), 15);
    expect(due.toISOString()).toBe('2026-12-14T16:00:00.000Z');
  });

  it('0 days: the end of the request day; negative or fractional counts are refused', () => {
    expect(addWorkingDays(sh('2026-11-28T08:00:00'), 0)).toEqual(endOf('2026-11-28'));
    expect(() => addWorkingDays(new Date(), -1)).toThrow(RangeError);
    expect(() => addWorkingDays(new Date(), 1.5)).toThrow(RangeError);
  });

  it('crosses month and year ends', () => {
    // Wed 2026-12-30 + 3 → Thu 31, Fri 1 Jan, Mon 4 Jan 2027.
    expect(addWorkingDays(sh('2026-12-30T10:00:00'), 3)).toEqual(endOf('2027-01-04'));
  });

  it('isWorkingDay: Monday to Friday only', () => {
    const dayNo = (d: string) => Math.floor((sh(`${d}T12:00:00`).getTime() + 8 * 3600_000) / 86_400_000);
    expect(week.map(([d]) => isWorkingDay(dayNo(d)))).toEqual([true, true, true, true, true, false, false]);
  });
});

describe('workingDaysLeft and overdue', () => {
  const due = endOf('2026-12-14'); // Monday
  it('counts down and goes negative after the deadline', () => {
    expect(workingDaysLeft(sh('2026-11-23T10:00:00'), due)).toBe(15);
    expect(workingDaysLeft(sh('2026-12-11T10:00:00'), due)).toBe(1); // Friday before
    expect(workingDaysLeft(sh('2026-12-12T10:00:00'), due)).toBe(1); // Saturday before
    expect(workingDaysLeft(sh('2026-12-14T23:59:59'), due)).toBe(0); // the due day itself
    expect(workingDaysLeft(sh('2026-12-15T00:00:00'), due)).toBe(-1);
    expect(workingDaysLeft(sh('2026-12-16T10:00:00'), due)).toBe(-2);
    expect(workingDaysLeft(sh('2026-12-19T10:00:00'), due)).toBe(-4); // Saturday after
  });
  it('a due deletion is overdue once its deadline passed unless confirmed', () => {
    const n = { status: 'sent' as const, dueAt: due, confirmedAt: null };
    expect(isOverdue(n, sh('2026-12-14T23:59:59'))).toBe(false);
    expect(isOverdue(n, sh('2026-12-15T00:00:00'))).toBe(true);
    expect(isOverdue({ ...n, status: 'confirmed', confirmedAt: due }, sh('2026-12-20T00:00:00'))).toBe(false);
    expect(isOverdue({ ...n, dueAt: null }, sh('2027-01-01T00:00:00'))).toBe(false);
  });
});

describe('exportFileName', () => {
  it('is named by the Shanghai date', () => {
    expect(exportFileName(new Date('2026-11-27T16:30:00Z'))).toBe('my-data-20261128.json');
    expect(exportFileName(new Date('2026-11-27T15:59:59Z'))).toBe('my-data-20261127.json');
  });
});

describe('maskIp and deviceSummary', () => {
  it('masks the last two IPv4 parts, IPv6 beyond two groups', () => {
    expect(maskIp('113.88.12.7')).toBe('113.88.*.*');
    expect(maskIp('::ffff:10.1.2.3')).toBe('10.1.*.*');
    expect(maskIp('2408:8207:1851:aa0::1')).toBe('2408:8207:*');
    expect(maskIp(null)).toBeNull();
    expect(maskIp('garbage')).toBe('*');
  });
  it('summarises common Chinese mobile user agents', () => {
    expect(
      deviceSummary(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('iPhone · Safari');
    expect(
      deviceSummary(
        'Mozilla/5.0 (Linux; Android 12; HUAWEI P50) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0 Mobile Safari/537.36 MicroMessenger/8.0.40',
      ),
    ).toBe('华为手机 · 微信');
    expect(
      deviceSummary(
        'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
      ),
    ).toBe('安卓手机 · Chrome');
    expect(deviceSummary('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36')).toBe(
      'Windows 电脑 · Chrome',
    );
    expect(deviceSummary('lightMyRequest')).toBe('未知设备');
    expect(deviceSummary(null)).toBe('未知设备');
  });
});

describe('planWithdrawal', () => {
  it('stops pending leads and tells the lender about what left or may have left', () => {
    const plan = planWithdrawal([
      { id: 1, key: 'a', status: 'pending', attempts: 0 }, // never tried: stopped, lender knows nothing
      { id: 2, key: 'b', status: 'pending', attempts: 2 }, // retrying: stopped, an attempt may have arrived
      { id: 3, key: 'c', status: 'delivered', attempts: 1 },
      { id: 4, key: 'd', status: 'redirect', attempts: 0 },
      { id: 5, key: 'e', status: 'awaiting_callback', attempts: 0 },
      { id: 6, key: 'f', status: 'dead', attempts: 8 }, // given up after tries: may have arrived
      { id: 7, key: 'g', status: 'dead', attempts: 0 }, // no endpoint: never sent
      { id: 8, key: 'h', status: 'withdrawn', attempts: 0 },
    ]);
    expect(plan.stop).toEqual([1, 2]);
    expect(plan.tell).toEqual(['b', 'c', 'd', 'e', 'f']);
  });
  it('nothing to do for nothing', () => {
    expect(planWithdrawal([])).toEqual({ stop: [], tell: [] });
  });
});

describe('noticeOutcome and noticePayload', () => {
  it('2xx is sent; a deletion answered {deleted:true} is confirmed; 409 is sent; else retry', () => {
    expect(noticeOutcome('withdrawal', 200, '{}')).toBe('sent');
    expect(noticeOutcome('withdrawal', 200, '{"deleted":true}')).toBe('sent');
    expect(noticeOutcome('deletion', 200, '{"deleted":true}')).toBe('confirmed');
    expect(noticeOutcome('deletion', 201, '{"data":{"deleted":true}}')).toBe('confirmed');
    expect(noticeOutcome('deletion', 200, '{"deleted":"yes"}')).toBe('sent');
    expect(noticeOutcome('deletion', 202, 'accepted')).toBe('sent');
    expect(noticeOutcome('deletion', 409, null)).toBe('sent');
    expect(noticeOutcome('deletion', 500, '{"deleted":true}')).toBe('retry');
    expect(noticeOutcome('withdrawal', 404, null)).toBe('retry');
  });
  it('builds the lender body', () => {
    const createdAt = new Date('2026-11-23T02:00:00Z');
    expect(
      noticePayload({ kind: 'deletion', key: 'n1', leadKeys: ['a'], createdAt, dueAt: endOf('2026-12-14') }),
    ).toEqual({
      type: 'data.deletion_requested',
      noticeId: 'n1',
      leadIds: ['a'],
      requestedAt: '2026-11-23T02:00:00.000Z',
      dueAt: '2026-12-14T16:00:00.000Z',
    });
    expect(noticePayload({ kind: 'withdrawal', key: 'n2', leadKeys: [], createdAt, dueAt: null }).type).toBe(
      'consent.withdrawn',
    );
  });
});

describe('groupSharing', () => {
  const base: Omit<SharingRow, 'productName' | 'consentedAt' | 'fields' | 'withdrawnAt' | 'lead'> = {
    partnerId: 1,
    lenderName: '甲银行',
    licenceNumber: 'L-1',
  };
  const t = (m: number) => new Date(Date.UTC(2026, 10, 23, 0, m));
  it('one entry per lender with the union of fields, last share time, withdrawal and latest notice', () => {
    const rows: SharingRow[] = [
      {
        ...base,
        productName: '甲贷',
        consentedAt: t(1),
        fields: ['realName', 'mobile'],
        withdrawnAt: t(10),
        lead: { status: 'delivered', deliveredAt: t(2), updatedAt: t(2), attempts: 1 },
      },
      {
        ...base,
        productName: '甲贷二号',
        consentedAt: t(3),
        fields: ['mobile', 'workCity'],
        withdrawnAt: t(11),
        lead: { status: 'withdrawn', deliveredAt: null, updatedAt: t(11), attempts: 0 },
      },
      {
        partnerId: 2,
        lenderName: '乙消费金融',
        licenceNumber: 'L-2',
        productName: '乙贷',
        consentedAt: t(5),
        fields: ['mobile'],
        withdrawnAt: null,
        lead: { status: 'pending', deliveredAt: null, updatedAt: t(5), attempts: 0 },
      },
    ];
    const out = groupSharing(rows, [
      {
        id: 1,
        partnerId: 1,
        kind: 'withdrawal',
        status: 'sent',
        dueAt: null,
        confirmedAt: null,
        createdAt: t(11),
      },
      {
        id: 2,
        partnerId: 1,
        kind: 'deletion',
        status: 'pending',
        dueAt: t(999),
        confirmedAt: null,
        createdAt: t(12),
      },
    ]);
    expect(out.map((e) => e.partnerId)).toEqual([2, 1]); // newest consent first
    const a = out[1]!;
    expect(a.products).toEqual(['甲贷', '甲贷二号']);
    expect(a.fields).toEqual(['realName', 'mobile', 'workCity']);
    expect(a.fieldLabels).toEqual(['姓名', '手机号', '工作城市']);
    expect(a.firstConsentAt).toBe(t(1).toISOString());
    expect(a.lastSharedAt).toBe(t(2).toISOString());
    expect(a.withdrawn).toBe(true);
    expect(a.withdrawnAt).toBe(t(11).toISOString());
    expect(a.notice).toEqual({
      kind: 'deletion',
      status: 'pending',
      dueAt: t(999).toISOString(),
      confirmedAt: null,
    });
    expect(a.leads.map((l) => l.productName)).toEqual(['甲贷二号', '甲贷']);
    const b = out[0]!;
    expect(b.withdrawn).toBe(false);
    expect(b.withdrawnAt).toBeNull();
    expect(b.lastSharedAt).toBeNull();
    expect(b.notice).toBeNull();
  });
});

describe('recordOutcome (the application record, issue 47.6)', () => {
  it('shows what the lender reported', () => {
    expect(recordOutcome({ status: 'delivered', outcome: 'funded' })).toBe('funded');
    expect(recordOutcome({ status: 'delivered', outcome: 'declined' })).toBe('declined');
    // The lender reported on a lead whose delivery we have not recorded: it got it.
    expect(recordOutcome({ status: 'pending', outcome: 'received' })).toBe('received');
  });

  it('is 申请中 (pending) for a lead the lender got and has not reported on', () => {
    for (const status of ['delivered', 'redirect', 'awaiting_callback'] as const)
      expect(recordOutcome({ status, outcome: null })).toBe('pending');
  });

  it('is nothing for an offer whose data never went to the lender', () => {
    expect(recordOutcome(null)).toBeNull();
    for (const status of ['pending', 'dead', 'withdrawn', 'discarded'] as const)
      expect(recordOutcome({ status, outcome: null })).toBeNull();
  });
});
