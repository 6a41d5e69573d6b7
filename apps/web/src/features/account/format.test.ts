import * as labels from '@lm/shared/privacy-labels';
import * as contract from '@lm/shared/schemas/privacy';
import { describe, expect, it } from 'vitest';
import {
  cancellationOutcome,
  DELETION_DEADLINE_WORKING_DAYS,
  exportFileName,
  fileNameFromDisposition,
  formatApr,
  formatDate,
  formatDateTime,
  leadTone,
  matchTypeText,
  noticeText,
  outcomeView,
} from './format';

describe('status words', () => {
  it('are the words of the server contract, for every status', () => {
    expect(labels.OFFER_STATUS_LABELS).toBe(contract.OFFER_STATUS_LABELS);
    expect(labels.LEAD_STATUS_LABELS).toBe(contract.LEAD_STATUS_LABELS);
    expect(labels.NOTICE_KIND_LABELS).toBe(contract.NOTICE_KIND_LABELS);
    expect(labels.NOTICE_STATUS_LABELS).toBe(contract.NOTICE_STATUS_LABELS);
    expect(labels.SESSION_REVOKE_REASON_LABELS).toBe(contract.SESSION_REVOKE_REASON_LABELS);
  });

  it('are Chinese and never the raw code', () => {
    for (const status of labels.LEAD_STATUSES) {
      expect(labels.LEAD_STATUS_LABELS[status]).toMatch(/[\u4e00-\u9fa5]/);
      expect(labels.LEAD_STATUS_LABELS[status]).not.toContain(status);
    }
  });

  it('marks a failed delivery as danger and a delivered one as success', () => {
    expect(leadTone('dead')).toBe('danger');
    expect(leadTone('delivered')).toBe('success');
    expect(leadTone('withdrawn')).toBe('default');
  });

  it('names the match types of spec §3 and falls back for unknown ones', () => {
    expect(matchTypeText(1)).toBe('智能匹配');
    expect(matchTypeText(6)).toBe('二次匹配');
    expect(matchTypeText(99)).toBe('产品匹配');
  });
});

describe('formatApr', () => {
  it('shows basis points as an annual percentage with two decimals', () => {
    expect(formatApr(1799)).toBe('年化 17.99%');
    expect(formatApr(2400)).toBe('年化 24.00%');
    expect(formatApr(360)).toBe('年化 3.60%');
    expect(formatApr(0)).toBe('年化 0.00%');
  });

  it('says the lender decides when there is no rate', () => {
    expect(formatApr(null)).toBe('年化利率以机构审批为准');
    expect(formatApr(undefined)).toBe('年化利率以机构审批为准');
    expect(formatApr(-5)).toBe('年化利率以机构审批为准');
  });
});

describe('dates', () => {
  it('are shown in Asia/Shanghai whatever the device zone', () => {
    expect(formatDateTime('2026-03-01T06:05:00Z')).toBe('2026-03-01 14:05');
    expect(formatDateTime('2026-03-01T16:30:00.000Z')).toBe('2026-03-02 00:30');
    expect(formatDate('2026-03-01T15:59:59Z')).toBe('2026-03-01');
    expect(formatDate('2026-03-01T16:00:00Z')).toBe('2026-03-02');
  });

  it('show a dash for a missing or broken date', () => {
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
    expect(formatDate(undefined)).toBe('—');
  });
});

describe('noticeText', () => {
  it('gives the deletion deadline until the lender confirms', () => {
    expect(
      noticeText({ kind: 'deletion', status: 'sent', dueAt: '2026-03-20T15:59:59Z', confirmedAt: null }),
    ).toBe('删除数据通知：机构已收到，机构须于 2026-03-20 前完成删除');
    expect(
      noticeText({
        kind: 'deletion',
        status: 'confirmed',
        dueAt: '2026-03-20T15:59:59Z',
        confirmedAt: '2026-03-04T02:00:00Z',
      }),
    ).toBe('删除数据通知：机构已确认（2026-03-04）');
  });

  it('describes a withdrawal notice without a deadline', () => {
    expect(noticeText({ kind: 'withdrawal', status: 'pending', dueAt: null, confirmedAt: null })).toBe(
      '撤回授权通知：正在通知机构',
    );
  });
});

describe('export file name', () => {
  it('prefers the UTF-8 name of Content-Disposition', () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="export.json"; filename*=UTF-8''%E6%88%91%E7%9A%84%E6%95%B0%E6%8D%AE.json`,
        'x.json',
      ),
    ).toBe('我的数据.json');
    expect(fileNameFromDisposition('attachment; filename="lm-export-12.json"', 'x.json')).toBe(
      'lm-export-12.json',
    );
    expect(fileNameFromDisposition('attachment; filename=plain.json', 'x.json')).toBe('plain.json');
  });

  it('never lets the server pick a directory and falls back without a usable name', () => {
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"', 'x.json')).toBe('passwd');
    expect(fileNameFromDisposition('attachment', 'x.json')).toBe('x.json');
    expect(fileNameFromDisposition(null, 'x.json')).toBe('x.json');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E6%88", 'x.json')).toBe('x.json');
  });

  it('defaults to the Shanghai day', () => {
    expect(exportFileName(Date.parse('2026-03-01T16:00:00Z'))).toBe('我的数据-2026-03-02.json');
  });
});

describe('what a cancellation did (issue 44.17)', () => {
  it('names the lenders notified and their deadline', () => {
    const lines = cancellationOutcome(3);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('您的账户资料、申请记录已删除，所有设备上的登录已失效。');
    expect(lines[1]).toBe(
      `已获得您信息的 3 家机构已收到删除通知，须在 ${DELETION_DEADLINE_WORKING_DAYS} 个工作日内删除，平台会跟踪直至完成。`,
    );
    expect(lines[2]).toBe('已获批或已放款的借款不受影响，请按借款合同按时还款。');
  });

  it('says no lender had the data when the list was read and empty', () => {
    const lines = cancellationOutcome(0);
    expect(lines[1]).toBe('没有机构获得过您的信息，无需通知删除。');
    expect(lines[1]).not.toContain('工作日');
  });

  it('speaks of every lender that had the data when the list could not be read', () => {
    const lines = cancellationOutcome(null);
    expect(lines[1]).toContain('每一家获得过您信息的机构');
    expect(lines[1]).toContain(`${DELETION_DEADLINE_WORKING_DAYS} 个工作日内删除`);
    expect(lines[1]).not.toMatch(/\d+ 家/);
  });
});

describe('outcomeView (a lender’s outcome in the application record, issue 47.6)', () => {
  const none = { limitFen: null, amountFen: null };
  it('is 申请中 until the lender says otherwise', () => {
    expect(outcomeView({ status: 'pending', ...none })).toEqual({
      label: '申请中',
      amount: null,
      tone: 'warning',
    });
    expect(outcomeView({ status: 'received', ...none })).toEqual({
      label: '申请中',
      amount: null,
      tone: 'warning',
    });
  });

  it('shows the limit when approved and the amount lent when funded, in 元', () => {
    expect(outcomeView({ status: 'approved', limitFen: 2_000_000, amountFen: null })).toEqual({
      label: '已授信',
      amount: '额度 20,000 元',
      tone: 'success',
    });
    expect(outcomeView({ status: 'funded', limitFen: 2_000_000, amountFen: 1_234_567 })).toEqual({
      label: '已放款',
      amount: '放款 12,345.67 元',
      tone: 'success',
    });
    expect(outcomeView({ status: 'approved', ...none }).amount).toBeNull();
  });

  it('is 未通过 for a decline and a duplicate, without an amount', () => {
    for (const status of ['declined', 'duplicate'] as const)
      expect(outcomeView({ status, limitFen: 500_000, amountFen: null })).toEqual({
        label: '未通过',
        amount: null,
        tone: 'default',
      });
  });
});
