import { describe, expect, it } from 'vitest';
import {
  contactsOf,
  deliverySummary,
  discardRefusal,
  maskContacts,
  maskDraft,
  retryRefusal,
  shanghaiDayRange,
} from './rules.ts';

describe('console masking', () => {
  it('masks the draft’s name and ID number and keeps the other answers', () => {
    expect(
      maskDraft({
        realName: '张三',
        identity: '110101199003074514',
        applyLimit: 2,
        workCity: '深圳市',
        x: { a: 1 },
      }),
    ).toEqual({
      realNameMasked: '张*',
      identityMasked: '1101**********4514',
      answers: { applyLimit: 2, workCity: '深圳市' },
    });
    expect(maskDraft({ applyLimit: 1 })).toMatchObject({ realNameMasked: null, identityMasked: null });
  });

  it('masks contacts and tolerates incomplete entries', () => {
    const contacts = contactsOf({
      contacts: [{ relationship: '0', name: '李四', phone: '13800000001' }, { name: '王五' }, null],
    });
    expect(contacts).toEqual([
      { relationship: '0', name: '李四', phone: '13800000001' },
      { relationship: '', name: '王五', phone: '' },
    ]);
    expect(maskContacts(contacts)).toEqual([
      { relationship: '0', nameMasked: '李*', phoneMasked: '138****0001' },
      { relationship: '', nameMasked: '王*', phoneMasked: '' },
    ]);
    expect(contactsOf(null)).toEqual([]);
  });
});

describe('Shanghai days', () => {
  it('turns inclusive from/to days into [start, end) instants', () => {
    expect(shanghaiDayRange('2026-03-01', '2026-03-01')).toEqual({
      start: new Date('2026-02-28T16:00:00Z'),
      end: new Date('2026-03-01T16:00:00Z'),
    });
    expect(shanghaiDayRange()).toEqual({});
  });
});

describe('dead letters', () => {
  const dead = { status: 'dead', consentWithdrawnAt: null, userStatus: 'active' };
  it('retries only dead leads whose consent is in force and whose account is active', () => {
    expect(retryRefusal(dead)).toBeNull();
    expect(retryRefusal({ ...dead, status: 'discarded' })).toContain('只有发送失败');
    expect(retryRefusal({ ...dead, status: 'delivered' })).toContain('只有发送失败');
    expect(retryRefusal({ ...dead, consentWithdrawnAt: new Date() })).toContain('撤回授权');
    expect(retryRefusal({ ...dead, userStatus: 'cancelled' })).toContain('注销');
  });

  it('discards only dead leads', () => {
    expect(discardRefusal('dead')).toBeNull();
    expect(discardRefusal('pending')).not.toBeNull();
    expect(discardRefusal('discarded')).not.toBeNull();
  });
});

describe('delivery summary', () => {
  it('adds up counts per partner, ages the oldest pending lead, puts dead letters first', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const list = deliverySummary(
      [
        { id: 1, legalName: '甲银行', status: 'active' },
        { id: 2, legalName: '乙消金', status: 'suspended' },
        { id: 3, legalName: '丙小贷', status: 'active' },
      ],
      [
        {
          partnerId: 1,
          status: 'pending',
          n: 3,
          dueNow: 2,
          leased: 1,
          deliveredToday: 0,
          oldestPendingAt: new Date('2026-03-01T11:58:00Z'),
        },
        {
          partnerId: 1,
          status: 'delivered',
          n: 5,
          dueNow: 0,
          leased: 0,
          deliveredToday: 4,
          oldestPendingAt: null,
        },
        {
          partnerId: 2,
          status: 'dead',
          n: 2,
          dueNow: 0,
          leased: 0,
          deliveredToday: 0,
          oldestPendingAt: null,
        },
        {
          partnerId: 2,
          status: 'discarded',
          n: 1,
          dueNow: 0,
          leased: 0,
          deliveredToday: 0,
          oldestPendingAt: null,
        },
        {
          partnerId: 2,
          status: 'awaiting_callback',
          n: 4,
          dueNow: 0,
          leased: 0,
          deliveredToday: 0,
          oldestPendingAt: null,
        },
      ],
      [
        {
          partnerId: 2,
          at: new Date('2026-03-01T10:00:00Z'),
          outcome: 'dead',
          httpStatus: 503,
          error: 'HTTP 503',
        },
      ],
      now,
    );
    expect(list.map((p) => p.partnerId)).toEqual([2, 1, 3]);
    expect(list[1]).toMatchObject({
      pending: 3,
      dueNow: 2,
      leased: 1,
      deliveredToday: 4,
      dead: 0,
      oldestPendingAt: '2026-03-01T11:58:00.000Z',
      oldestPendingAgeSeconds: 120,
      lastAttempt: null,
    });
    expect(list[0]).toMatchObject({
      partnerStatus: 'suspended',
      dead: 2,
      discarded: 1,
      awaitingCallback: 4,
      oldestPendingAt: null,
      lastAttempt: { outcome: 'dead', httpStatus: 503, at: '2026-03-01T10:00:00.000Z' },
    });
    expect(list[2]).toMatchObject({ pending: 0, dead: 0, lastAttempt: null });
  });
});
