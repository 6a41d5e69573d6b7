import { describe, expect, it } from 'vitest';
import { diffEntries, diffSummary } from './diff';

describe('audit before/after', () => {
  it('lists changed, unchanged, added and removed fields', () => {
    const rows = diffEntries(
      { status: 'dead', attempts: 2, lastError: 'HTTP 503', name: '渠道A' },
      { status: 'pending', attempts: 0, lastError: null, name: '渠道A', weights: [1, 2] },
    );
    expect(rows).toEqual([
      { key: 'status', before: 'dead', after: 'pending', changed: true, kind: 'changed' },
      { key: 'attempts', before: '2', after: '0', changed: true, kind: 'changed' },
      { key: 'lastError', before: 'HTTP 503', after: '—', changed: true, kind: 'changed' },
      { key: 'name', before: '渠道A', after: '渠道A', changed: false, kind: 'same' },
      { key: 'weights', before: '', after: '[1,2]', changed: true, kind: 'added' },
    ]);
    expect(diffEntries({ a: 1 }, { b: 1 }).map((r) => r.kind)).toEqual(['removed', 'added']);
  });

  it('summarises only what changed; a creation or a reveal shows the after values', () => {
    expect(diffSummary({ status: 'dead', attempts: 2 }, { status: 'pending', attempts: 2 })).toBe(
      'status: dead → pending',
    );
    expect(diffSummary(null, { field: 'realName' })).toBe('field: realName');
    expect(diffSummary(null, null)).toBe('');
  });
});
