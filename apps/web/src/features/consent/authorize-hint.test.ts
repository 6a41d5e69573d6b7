import { describe, expect, it } from 'vitest';
import { authorizeHint, SKIP_TO_RESULT } from './authorize-hint';

describe('authorizeHint', () => {
  it('the first authorisation names the count and how consent works', () => {
    const hint = authorizeHint(3);
    expect(hint).toMatch(/^以下3家机构可为您提供借款服务。/);
    expect(hint).toContain('未勾选的机构不会收到任何信息');
  });

  it('the second says in one paragraph that a consent was given, the count, the rule and the way out', () => {
    const hint = authorizeHint(2, true);
    expect(hint).toMatch(/^您的授权已提交。/);
    expect(hint).toContain('以下2家机构也可为您提供借款服务');
    expect(hint).toContain('未勾选的机构不会收到任何信息');
    expect(hint).toContain('跳过');
    // One statement of each thing: the rule is not said twice.
    expect(hint.split('不会收到任何信息')).toHaveLength(2);
    expect(hint.split('可为您提供')).toHaveLength(2);
  });

  it('the skip button says where it leads', () => {
    expect(SKIP_TO_RESULT).toBe('跳过，查看结果');
  });
});
