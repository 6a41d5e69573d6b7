import { describe, expect, it } from 'vitest';
import type { NavigateDecision } from '@/features/flow/decide';
import { liveSessionTarget } from './live-session';

const decision: NavigateDecision = {
  kind: 'navigate',
  step: 'main.6 not submitted: form',
  path: '/fill-information',
  replace: false,
};

describe('liveSessionTarget (issue 16.5: a live session on a login page goes on)', () => {
  it('returns to the page that sent the visitor to log in, replacing the login page', () => {
    expect(liveSessionTarget('/fill-information?adChannelCode=demo', null)).toMatchObject({
      path: '/fill-information?adChannelCode=demo',
      replace: true,
      delayMs: 0,
    });
  });

  it('otherwise follows the post-login decision, replacing the login page, without the delay', () => {
    expect(liveSessionTarget(null, decision)).toEqual({ ...decision, replace: true, delayMs: 0 });
  });

  it("keeps a decision's toast and its delay", () => {
    const toasted = { ...decision, toast: { content: '认证失败', duration: 2000 }, delayMs: 2000 };
    expect(liveSessionTarget(null, toasted)).toEqual({ ...toasted, replace: true });
  });

  it('needs a decision when there is no page to return to', () => {
    expect(() => liveSessionTarget(null, null)).toThrow();
  });
});
