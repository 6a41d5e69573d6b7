import { describe, expect, it } from 'vitest';
import { creditDraftKey, draftKeysOfOthers, isDraftKey } from '@/lib/form-drafts';
import { memoryStore } from '@/lib/storage';
import {
  cleanCreditDraft,
  forgetCreditDraft,
  overDraft,
  readCreditDraft,
  saveCreditDraft,
} from './credit-draft';
import type { CreditFormValues } from './wizard';

const SHENZHEN = { provinceCode: '440000', province: '广东省', cityCode: '440300', city: '深圳市' };

describe('credit wizard draft', () => {
  it('round-trips what the wizard holds, per person', () => {
    const store = memoryStore();
    const values: CreditFormValues = {
      education: [3],
      contacts: [{ relationship: ['PARENT'], name: '李四', phone: '13800000001' }, { name: '王五' }],
      residentialRegion: SHENZHEN,
      residentialAddress: '南山区科技园1号',
    };
    saveCreditDraft(store, '7', values);
    expect(readCreditDraft(store, '7')).toEqual(values);
    expect(readCreditDraft(store, '8')).toEqual({});
    expect(readCreditDraft(store, null)).toEqual({});
  });

  it('leaves out what is empty or malformed, and removes a draft with nothing in it', () => {
    expect(
      cleanCreditDraft({
        education: [null],
        maritalStatus: ['x'],
        annualIncome: [1, 2],
        companyName: '',
        companyRegion: { city: '深圳市' },
        contacts: [{ phone: 13800000001 }, {}],
        extra: 'kept out',
      }),
    ).toEqual({});
    for (const raw of [null, 1, 'x', []]) expect(cleanCreditDraft(raw)).toEqual({});
    expect(cleanCreditDraft({ companyName: 'x'.repeat(80), contacts: [{}, {}, { name: '三号' }] })).toEqual({
      companyName: 'x'.repeat(50),
    });
    const store = memoryStore();
    saveCreditDraft(store, '7', { companyName: '某公司' });
    saveCreditDraft(store, '7', { companyName: '' });
    expect(store.get(creditDraftKey('7'))).toBeNull();
  });

  it('opens over the server’s record field by field, a contact’s fields too', () => {
    const server: CreditFormValues = {
      education: [2],
      maritalStatus: [1],
      contacts: [
        { relationship: ['PARENT'], name: '李四', phone: '13800000001' },
        { relationship: ['FRIEND'], name: '王五', phone: '13800000002' },
      ],
    };
    expect(overDraft(server, { education: [4], contacts: [{}, { phone: '13900000009' }] })).toEqual({
      education: [4],
      maritalStatus: [1],
      contacts: [
        { relationship: ['PARENT'], name: '李四', phone: '13800000001' },
        { relationship: ['FRIEND'], name: '王五', phone: '13900000009' },
      ],
    });
    expect(overDraft(server, {})).toEqual(server);
  });

  it('is forgotten on request, and lives and goes like the form drafts', () => {
    const store = memoryStore();
    saveCreditDraft(store, '7', { companyName: '某公司' });
    forgetCreditDraft(store, '7');
    expect(readCreditDraft(store, '7')).toEqual({});
    const key = creditDraftKey('7');
    expect(isDraftKey(key)).toBe(true);
    expect(draftKeysOfOthers([key], '7')).toEqual([]);
    expect(draftKeysOfOthers([key], '8')).toEqual([key]);
  });
});
