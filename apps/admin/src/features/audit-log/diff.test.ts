import { describe, expect, it } from 'vitest';
import { diffEntries, diffSummary, snapshotText } from './diff';

describe('audit before/after', () => {
  it('lists changed, unchanged, added and removed fields by their labels, values in words', () => {
    const rows = diffEntries(
      'lead',
      { status: 'dead', attempts: 2, lastError: 'HTTP 503', partnerId: 3 },
      { status: 'pending', attempts: 0, lastError: null, partnerId: 3, bulk: true },
    );
    expect(rows).toEqual([
      {
        key: 'status',
        label: '发送状态',
        before: '发送失败',
        after: '待发送',
        changed: true,
        kind: 'changed',
      },
      { key: 'attempts', label: '已发送次数', before: '2 次', after: '0 次', changed: true, kind: 'changed' },
      {
        key: 'lastError',
        label: '最近一次失败原因',
        before: 'HTTP 503',
        after: '—',
        changed: true,
        kind: 'changed',
      },
      { key: 'partnerId', label: '合作机构编号', before: '3', after: '3', changed: false, kind: 'same' },
      { key: 'bulk', label: '批量操作', before: '', after: '是', changed: true, kind: 'added' },
    ]);
    expect(diffEntries('channel', { a: 1 }, { b: 1 }).map((r) => r.kind)).toEqual(['removed', 'added']);
  });

  it('summarises only what changed, in words (issue 44.11: no codes, no UTC, no field names)', () => {
    expect(
      diffSummary('product', { status: 'draft', aprBps: 2650 }, { status: 'published', aprBps: 1800 }),
    ).toBe('上架状态：草稿 → 已上架；综合年化利率：26.50% → 18.00%');
    expect(diffSummary('user', null, { field: 'realName' })).toBe('查看的字段：真实姓名');
    expect(diffSummary('product', null, null)).toBe('');
    const created = snapshotText('product', {
      companyType: 'KAInstitution',
      createdAt: '2026-12-05T01:33:07.550Z',
    });
    expect(created).toBe('机构类别：大机构；创建时间：2026-12-05 09:33:07');
  });
});
