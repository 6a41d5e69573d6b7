import { describe, expect, it } from 'vitest';
import {
  CREDIT_WIZARD_STEPS,
  type CreditInfoFields,
  contactPairProblems,
  creditInfoStep,
  creditWizardStep,
  FaceStatus,
  normalizeContacts,
  stepOrder,
} from './credit-info.ts';

const complete: CreditInfoFields = {
  education: 0,
  maritalStatus: 0,
  annualIncome: 0,
  occupation: 0,
  loanPurpose: 0,
  residentialRegion: '310100',
  residentialAddress: '浦东新区世纪大道1号',
  companyName: '某某公司',
  companyRegion: '440300',
  companyAddress: '南山区科技园1栋',
  contacts: [
    { relationship: '0', name: '张三', phone: '13800000001' },
    { relationship: '1', name: '李四', phone: '13800000002' },
  ],
};
const passed = { ...complete, auditStatus: FaceStatus.PASSED };

describe('creditWizardStep (spec §4 wizard steps)', () => {
  it('IDENTITY while the face status is not passed (0, 1, missing), even with every field filled in', () => {
    for (const auditStatus of [0, 1, null, undefined, 3]) {
      expect(creditWizardStep({ ...complete, auditStatus }), String(auditStatus)).toBe('IDENTITY');
    }
    expect(creditWizardStep(null)).toBe('IDENTITY');
    expect(creditWizardStep(undefined)).toBe('IDENTITY');
  });

  it('face passed and nothing filled in → INFORMATION', () => {
    expect(creditWizardStep({ auditStatus: 2 })).toBe('INFORMATION');
  });

  it('any of education, maritalStatus, annualIncome, occupation, loanPurpose missing → INFORMATION', () => {
    for (const field of [
      'education',
      'maritalStatus',
      'annualIncome',
      'occupation',
      'loanPurpose',
    ] as const) {
      for (const missing of [undefined, null, Number.NaN]) {
        expect(creditWizardStep({ ...passed, [field]: missing }), `${field}=${missing}`).toBe('INFORMATION');
      }
    }
  });

  it('0 is a value (education 0 postdoctoral, married 0 …)', () => {
    expect(creditWizardStep(passed)).toBe('DONE');
  });

  it('INFORMATION comes before a missing contact and a missing base field', () => {
    expect(creditWizardStep({ ...passed, loanPurpose: null, contacts: null, companyName: '' })).toBe(
      'INFORMATION',
    );
  });

  it('a contact missing name, phone or relationship → CONTACT', () => {
    for (const field of ['name', 'phone', 'relationship'] as const) {
      for (const index of [0, 1]) {
        const contacts = complete.contacts!.map((c, i) => (i === index ? { ...c, [field]: ' ' } : c));
        expect(creditWizardStep({ ...passed, contacts }), `${field} of ${index}`).toBe('CONTACT');
      }
    }
  });

  it('missing contacts (none, one, null entries) → CONTACT', () => {
    expect(creditWizardStep({ ...passed, contacts: null })).toBe('CONTACT');
    expect(creditWizardStep({ ...passed, contacts: undefined })).toBe('CONTACT');
    expect(creditWizardStep({ ...passed, contacts: [] })).toBe('CONTACT');
    expect(creditWizardStep({ ...passed, contacts: [complete.contacts![0]!] })).toBe('CONTACT');
  });

  it('CONTACT comes before a missing base field', () => {
    expect(creditWizardStep({ ...passed, contacts: [], companyAddress: '' })).toBe('CONTACT');
  });

  it('any of the regions, addresses or company name missing → BASE', () => {
    for (const field of [
      'residentialRegion',
      'residentialAddress',
      'companyName',
      'companyRegion',
      'companyAddress',
    ] as const) {
      for (const missing of [undefined, null, '', '  ']) {
        expect(creditWizardStep({ ...passed, [field]: missing }), `${field}=${missing}`).toBe('BASE');
      }
    }
  });

  it('everything present with face passed → DONE', () => {
    expect(creditWizardStep(passed)).toBe('DONE');
  });

  it('creditInfoStep is the same without the face rule; no info → INFORMATION', () => {
    expect(creditInfoStep(null)).toBe('INFORMATION');
    expect(creditInfoStep(complete)).toBe('DONE');
    expect(creditInfoStep({ ...complete, contacts: null })).toBe('CONTACT');
    expect(creditInfoStep({ ...complete, companyAddress: ' ' })).toBe('BASE');
  });

  it('steps are ordered IDENTITY < INFORMATION < CONTACT < BASE < DONE', () => {
    expect(CREDIT_WIZARD_STEPS.map(stepOrder)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('normalizeContacts (missing contacts become two blank entries)', () => {
  const blank = { relationship: '', name: '', phone: '' };
  it('none → two blank entries', () => {
    expect(normalizeContacts(undefined)).toEqual([blank, blank]);
    expect(normalizeContacts(null)).toEqual([blank, blank]);
    expect(normalizeContacts([])).toEqual([blank, blank]);
  });
  it('one → that one and a blank one; extra entries dropped; null fields blank', () => {
    const a = { relationship: '0', name: '张三', phone: '13800000001' };
    expect(normalizeContacts([a])).toEqual([a, blank]);
    expect(normalizeContacts([a, a, a])).toEqual([a, a]);
    expect(normalizeContacts([null, { name: '李四', phone: null }])).toEqual([
      blank,
      { relationship: '', name: '李四', phone: '' },
    ]);
  });
  it('returns new objects (the caller may edit them)', () => {
    const [first] = normalizeContacts(undefined);
    first!.name = 'x';
    expect(normalizeContacts(undefined)[0]!.name).toBe('');
  });
});

describe('contactPairProblems', () => {
  const a = { relationship: '0', name: '张三', phone: '13800000001' };
  const b = { relationship: '1', name: '李四', phone: '13800000002' };
  it('two different phones, not mine → none', () => {
    expect(contactPairProblems([a, b], (p) => p === '13900000000')).toEqual([]);
  });
  it('the same phone twice → reported on the second', () => {
    expect(contactPairProblems([a, { ...b, phone: ` ${a.phone}` }])).toEqual([
      { index: 1, field: 'phone', message: '联系人2手机号与联系人1相同，请填写两位不同的联系人' },
    ]);
  });
  it("the person's own phone → reported on that contact", () => {
    expect(contactPairProblems([a, b], (p) => p === b.phone)).toEqual([
      { index: 1, field: 'phone', message: '联系人2手机号不能是本人手机号' },
    ]);
    expect(contactPairProblems([a, { ...b, phone: a.phone }], (p) => p === a.phone)).toEqual([
      { index: 0, field: 'phone', message: '联系人1手机号不能是本人手机号' },
      { index: 1, field: 'phone', message: '联系人2手机号不能是本人手机号' },
    ]);
  });
  it('malformed or blank phones are left to the format rule', () => {
    expect(contactPairProblems([{ phone: '123' }, { phone: '123' }, null])).toEqual([]);
  });
});
