import { formatShanghai } from '@lm/shared/time';
import { describe, expect, it } from 'vitest';
import { noticeStatusText, retryAction, workingDaysText } from './format';

describe('console deletion list words', () => {
  it('counts working days left and calls out overdue ones', () => {
    expect(workingDaysText({ status: 'sent', overdue: false, workingDaysLeft: 3 })).toBe('剩 3 个工作日');
    expect(workingDaysText({ status: 'pending', overdue: false, workingDaysLeft: 0 })).toBe('今天到期');
    expect(workingDaysText({ status: 'sent', overdue: true, workingDaysLeft: -2 })).toBe('逾期 2 个工作日');
    expect(workingDaysText({ status: 'dead', overdue: true, workingDaysLeft: 0 })).toBe('已逾期');
    expect(workingDaysText({ status: 'confirmed', overdue: false, workingDaysLeft: -4 })).toBe('已完成');
    expect(workingDaysText({ status: 'pending', overdue: false, workingDaysLeft: null })).toBe('—');
  });

  it('offers a retry only where the server accepts one', () => {
    expect(retryAction({ kind: 'deletion', status: 'dead' })).toBe('重新发送');
    expect(retryAction({ kind: 'withdrawal', status: 'dead' })).toBe('重新发送');
    expect(retryAction({ kind: 'deletion', status: 'sent' })).toBe('再次提醒');
    expect(retryAction({ kind: 'withdrawal', status: 'sent' })).toBeNull();
    expect(retryAction({ kind: 'deletion', status: 'pending' })).toBeNull();
    expect(retryAction({ kind: 'deletion', status: 'confirmed' })).toBeNull();
  });

  it('calls a received withdrawal done, a received deletion still awaiting confirmation', () => {
    expect(noticeStatusText('withdrawal', 'sent')).toBe('机构已收到');
    expect(noticeStatusText('deletion', 'sent')).toBe('已送达，待机构确认');
    expect(noticeStatusText('deletion', 'dead')).toBe('发送失败');
  });

  it('shows times in Asia/Shanghai', () => {
    expect(formatShanghai('2026-03-20T15:59:59Z', 'day')).toBe('2026-03-20');
    expect(formatShanghai('2026-03-20T16:00:00Z')).toBe('2026-03-21 00:00');
    expect(formatShanghai(null)).toBe('—');
  });
});
