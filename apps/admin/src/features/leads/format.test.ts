import { describe, expect, it } from 'vitest';
import { formatShanghai, leadCountsText, noticeOverdue, outcomeText } from './format';

describe('people and leads wording', () => {
  it('shows times in Shanghai', () => {
    expect(formatShanghai('2026-03-01T16:05:09.000Z')).toBe('2026-03-02 00:05');
    expect(formatShanghai('2026-03-01T16:05:09.000Z', 'second')).toBe('2026-03-02 00:05:09');
    expect(formatShanghai(null)).toBe('—');
  });

  it('summarises lead counts by status in Chinese', () => {
    expect(leadCountsText({ delivered: 2, dead: 1 })).toBe('已送达 2 · 发送失败 1');
    expect(leadCountsText({})).toBe('—');
  });

  it('marks an unconfirmed deletion past its deadline as overdue', () => {
    const now = Date.parse('2026-03-10T00:00:00Z');
    const due = '2026-03-09T16:00:00Z';
    expect(noticeOverdue({ kind: 'deletion', status: 'sent', dueAt: due }, now)).toBe(true);
    expect(noticeOverdue({ kind: 'deletion', status: 'confirmed', dueAt: due }, now)).toBe(false);
    expect(noticeOverdue({ kind: 'withdrawal', status: 'sent', dueAt: null }, now)).toBe(false);
    expect(noticeOverdue({ kind: 'deletion', status: 'pending', dueAt: '2026-03-20T00:00:00Z' }, now)).toBe(
      false,
    );
  });

  it('names a lead’s outcome in the person’s word and the lender’s', () => {
    expect(outcomeText(null)).toBe('申请中（未反馈）');
    expect(outcomeText('received')).toBe('申请中（已受理）');
    expect(outcomeText('approved')).toBe('已授信（授信通过）');
    expect(outcomeText('funded')).toBe('已放款');
    expect(outcomeText('declined')).toBe('未通过（审批拒绝）');
    expect(outcomeText('duplicate')).toBe('未通过（重复线索）');
  });
});
