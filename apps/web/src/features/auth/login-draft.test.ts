import { describe, expect, it } from 'vitest';
import { memoryStore } from '@/lib/storage';
import {
  forgetLoginDraft,
  keepCodeWait,
  keepLoginPhone,
  LOGIN_DRAFT_KEY,
  readLoginDraft,
} from './login-draft';

const T0 = Date.parse('2026-11-29T07:00:00Z');

describe('the login form kept for the tab', () => {
  it('has nothing when nothing was typed', () => {
    expect(readLoginDraft(memoryStore(), T0)).toEqual({ phone: '', resendSeconds: 0 });
  });

  it('keeps the phone typed, and forgets it when the field is emptied', () => {
    const store = memoryStore();
    keepLoginPhone('1391234', store, T0);
    expect(readLoginDraft(store, T0)).toEqual({ phone: '1391234', resendSeconds: 0 });
    keepLoginPhone('', store, T0);
    expect(store.dump()).toEqual({});
  });

  it('counts the wait after a send down by the clock, and keeps it while the phone is edited', () => {
    const store = memoryStore();
    keepCodeWait('13912345678', 60, store, T0);
    expect(readLoginDraft(store, T0 + 15_500)).toEqual({ phone: '13912345678', resendSeconds: 45 });
    keepLoginPhone('1391234567', store, T0 + 20_000);
    expect(readLoginDraft(store, T0 + 20_000)).toEqual({ phone: '1391234567', resendSeconds: 40 });
    expect(readLoginDraft(store, T0 + 60_000).resendSeconds).toBe(0);
    expect(readLoginDraft(store, T0 + 90_000).resendSeconds).toBe(0);
  });

  it('forgets everything at login', () => {
    const store = memoryStore();
    keepCodeWait('13912345678', 60, store, T0);
    forgetLoginDraft(store);
    expect(readLoginDraft(store, T0)).toEqual({ phone: '', resendSeconds: 0 });
  });

  it('ignores what it cannot have written', () => {
    for (const raw of [
      'not json',
      '{"phone":"abc"}',
      '{"phone":"139123456789"}',
      '{"phone":5,"resendAt":"x"}',
    ]) {
      const store = memoryStore({ [LOGIN_DRAFT_KEY]: raw });
      expect(readLoginDraft(store, T0), raw).toEqual({ phone: '', resendSeconds: 0 });
    }
  });
});
