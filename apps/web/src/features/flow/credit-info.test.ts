import { describe, expect, it } from 'vitest';
import { type CreditInfo, creditInfoStep, normalizeContacts } from './credit-info';

const complete: CreditInfo = {
  education: 0,
  maritalStatus: 0,
  annualIncome: 0,
  occupation: 0,
  loanPurpose: 0,
  residentialRegion: '310101',
  residentialAddress: 'a',
  companyName: 'b',
  companyRegion: '310101',
  companyAddress: 'c',
  contacts: [
    { relationship: '0', name: 'x', phone: '13800000001' },
    { relationship: '1', name: 'y', phone: '13800000002' },
  ],
};

describe('creditInfoStep (spec §4 wizard steps)', () => {
  it('no info → INFORMATION', () => expect(creditInfoStep(null)).toBe('INFORMATION'));
  it('0 is a value (education 0 postdoctoral)', () => expect(creditInfoStep(complete)).toBe('DONE'));
  it('a missing information field → INFORMATION', () =>
    expect(creditInfoStep({ ...complete, loanPurpose: null })).toBe('INFORMATION'));
  it('a contact without phone → CONTACT', () =>
    expect(
      creditInfoStep({
        ...complete,
        contacts: [complete.contacts![0]!, { relationship: '1', name: 'y', phone: '' }],
      }),
    ).toBe('CONTACT'));
  it('missing contacts → CONTACT', () =>
    expect(creditInfoStep({ ...complete, contacts: null })).toBe('CONTACT'));
  it('a missing base field → BASE', () =>
    expect(creditInfoStep({ ...complete, companyAddress: ' ' })).toBe('BASE'));
  it('missing contacts become two blank entries', () =>
    expect(normalizeContacts(undefined)).toEqual([
      { relationship: '', name: '', phone: '' },
      { relationship: '', name: '', phone: '' },
    ]));
});
