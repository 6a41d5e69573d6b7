import { describe, expect, it } from 'vitest';
import { draftKeysOfOthers, identityDraftKey, isDraftKey } from '@/lib/form-drafts';
import { memoryStore } from '@/lib/storage';
import { forgetIdentityDraft, readIdentityDraft, saveIdentityDraft } from './identity-draft';

const OCR = {
  fields: ['realName', 'identity'] as ('realName' | 'identity')[],
  note: '请逐字核对',
  valid: true,
};

describe('identity page draft', () => {
  it('round-trips the typed fields and the card reading, per person', () => {
    const store = memoryStore();
    saveIdentityDraft(store, '7', { realName: '张三', identity: '110101199003074514', ocr: OCR });
    expect(readIdentityDraft(store, '7')).toEqual({
      realName: '张三',
      identity: '110101199003074514',
      ocr: OCR,
    });
    expect(readIdentityDraft(store, '8')).toEqual({});
    expect(readIdentityDraft(store, null)).toEqual({});
  });

  it('keeps a half-typed draft, and removes an empty one', () => {
    const store = memoryStore();
    saveIdentityDraft(store, '7', { realName: '张' });
    expect(readIdentityDraft(store, '7')).toEqual({ realName: '张' });
    saveIdentityDraft(store, '7', { realName: '', identity: '' });
    expect(store.get(identityDraftKey('7'))).toBeNull();
  });

  it('without a session keeps nothing', () => {
    const store = memoryStore();
    saveIdentityDraft(store, null, { realName: '张三' });
    expect(store.get(identityDraftKey('null'))).toBeNull();
  });

  it('reads what is well-formed only', () => {
    const key = identityDraftKey('7');
    for (const raw of ['{', '"x"', '1', 'null', '{"realName":3}', '{"ocr":{"note":1}}']) {
      const draft = readIdentityDraft(memoryStore({ [key]: raw }), '7');
      expect(draft.realName).toBeUndefined();
      expect(draft.ocr).toBeUndefined();
    }
    const odd = readIdentityDraft(
      memoryStore({
        [key]: JSON.stringify({ identity: 'x'.repeat(40), ocr: { ...OCR, fields: ['realName', 'phone'] } }),
      }),
      '7',
    );
    expect(odd).toEqual({ identity: 'x'.repeat(18), ocr: { ...OCR, fields: ['realName'] } });
  });

  it('is forgotten on request', () => {
    const store = memoryStore();
    saveIdentityDraft(store, '7', { realName: '张三' });
    forgetIdentityDraft(store, '7');
    expect(readIdentityDraft(store, '7')).toEqual({});
  });

  it('lives and goes like the form drafts: kept across a re-login, removed at another person’s', () => {
    const key = identityDraftKey('7');
    expect(isDraftKey(key)).toBe(true);
    expect(draftKeysOfOthers([key], '7')).toEqual([]);
    expect(draftKeysOfOthers([key], '8')).toEqual([key]);
  });
});
