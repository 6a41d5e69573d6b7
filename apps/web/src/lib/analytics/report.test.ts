import { describe, expect, it, vi } from 'vitest';
import { memoryStore } from '@/lib/storage';
import {
  authorizationPageSteps,
  claimStep,
  getAnalyticsSessionId,
  type ReportDeps,
  releaseStep,
  reportChannelClickWith,
  reportStepWith,
} from './report';

const NOW = Date.parse('2026-05-10T04:00:00Z');

function deps(over: Partial<ReportDeps> = {}): ReportDeps {
  return {
    session: memoryStore(),
    local: memoryStore(),
    now: () => NOW,
    random: () => 0.5,
    context: async () => ({ adChannelCode: 'demo', skin: 17, fingerprint: 'fp1' }),
    sendEvent: vi.fn(async () => ({ recorded: true })),
    sendClick: vi.fn(async () => ({ counted: true })),
    ...over,
  };
}

describe('reportStep: once per session per step', () => {
  it('sends the event body of spec §1', async () => {
    const d = deps();
    expect(await reportStepWith(d, 'init')).toBe(true);
    expect(d.sendEvent).toHaveBeenCalledWith({
      step: 'init',
      sessionId: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
      adChannelCode: 'demo',
      skin: 17,
      fingerprint: 'fp1',
      behaviorCode: expect.stringMatching(/^\d{17}$/),
      source: 'H5',
    });
  });

  it('a second report of the same step in the session is not sent', async () => {
    const d = deps();
    await reportStepWith(d, 'login');
    expect(await reportStepWith(d, 'login')).toBe(false);
    expect(d.sendEvent).toHaveBeenCalledTimes(1);
  });

  it('concurrent reports of one step send once', async () => {
    const d = deps();
    await Promise.all([reportStepWith(d, 'visit_landing'), reportStepWith(d, 'visit_landing')]);
    expect(d.sendEvent).toHaveBeenCalledTimes(1);
  });

  it('other steps and other sessions are sent', async () => {
    const d = deps();
    await reportStepWith(d, 'init');
    await reportStepWith(d, 'visit_landing');
    await reportStepWith({ ...d, session: memoryStore() }, 'init');
    expect(d.sendEvent).toHaveBeenCalledTimes(3);
  });

  it('a failed report is silent and may be retried later in the session', async () => {
    const send = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({});
    const d = deps({ sendEvent: send });
    expect(await reportStepWith(d, 'login')).toBe(false);
    expect(await reportStepWith(d, 'login')).toBe(true);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('leaves out an unknown channel and fingerprint', async () => {
    const d = deps({ context: async () => ({ adChannelCode: '', skin: 17, fingerprint: '' }) });
    await reportStepWith(d, 'init');
    const body = vi.mocked(d.sendEvent).mock.calls[0]![0];
    expect(body).not.toHaveProperty('adChannelCode');
    expect(body).not.toHaveProperty('fingerprint');
  });

  it('the session id is stable within a session', () => {
    const session = memoryStore();
    const id = getAnalyticsSessionId(session, Math.random);
    expect(getAnalyticsSessionId(session, Math.random)).toBe(id);
  });

  it('an authorisation page: 二次授权 only after the retention popup; the second match’s page is 二次匹配授权', () => {
    const session = memoryStore();
    expect(authorizationPageSteps(session, false)).toEqual(['visit_authorization']);
    expect(authorizationPageSteps(session, true)).toEqual(['second_match_authorization']);
    claimStep(session, 'retention_popup');
    expect(authorizationPageSteps(session, false)).toEqual(['visit_authorization', 're_authorization']);
    expect(authorizationPageSteps(session, true)).toEqual(['second_match_authorization']);
  });

  it('claimStep / releaseStep', () => {
    const session = memoryStore();
    expect(claimStep(session, 'authorize')).toBe(true);
    expect(claimStep(session, 'authorize')).toBe(false);
    releaseStep(session, 'authorize');
    expect(claimStep(session, 'authorize')).toBe(true);
  });
});

describe('reportChannelClick: once per day per channel', () => {
  it('sends adChannelCode, fingerprint and the skin as abTestType', async () => {
    const d = deps();
    expect(await reportChannelClickWith(d)).toBe(true);
    expect(d.sendClick).toHaveBeenCalledWith({ adChannelCode: 'demo', fingerprint: 'fp1', abTestType: 17 });
  });

  it('not twice on the same Shanghai day, again the next day', async () => {
    const d = deps();
    await reportChannelClickWith(d);
    expect(await reportChannelClickWith({ ...d, now: () => NOW + 3600_000 })).toBe(false);
    expect(await reportChannelClickWith({ ...d, now: () => NOW + 24 * 3600_000 })).toBe(true);
    expect(d.sendClick).toHaveBeenCalledTimes(2);
  });

  it('another channel the same day is sent', async () => {
    const d = deps();
    await reportChannelClickWith(d);
    await reportChannelClickWith({
      ...d,
      context: async () => ({ adChannelCode: 'demo-skin8', skin: 8, fingerprint: '' }),
    });
    expect(d.sendClick).toHaveBeenCalledTimes(2);
  });

  it('nothing without a channel; a failure may be retried', async () => {
    expect(
      await reportChannelClickWith(
        deps({ context: async () => ({ adChannelCode: '', skin: 17, fingerprint: '' }) }),
      ),
    ).toBe(false);
    const send = vi.fn().mockRejectedValueOnce(new Error('x')).mockResolvedValue({});
    const d = deps({ sendClick: send });
    expect(await reportChannelClickWith(d)).toBe(false);
    expect(await reportChannelClickWith(d)).toBe(true);
  });
});
