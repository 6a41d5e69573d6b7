import {
  CONTACT_RELATIONSHIPS,
  CREDIT_OPTION_CODES,
  type CreditInfo,
  creditWizardStep,
} from '@lm/shared/credit-info';
import { creditInfoPatchBody } from '@lm/shared/schemas/credit-info';
import { describe, expect, it } from 'vitest';
import {
  ANNUAL_INCOME_OPTIONS,
  CONTACT_RELATION_OPTIONS,
  EDUCATION_OPTIONS,
  LOAN_PURPOSE_OPTIONS,
  MARITAL_STATUS_OPTIONS,
  OCCUPATION_OPTIONS,
} from '@/config/form-options';
import {
  FORM_STEPS,
  firstFormStep,
  previousStep,
  STEP_FIELD_NAMES,
  stepAfterSave,
  toFormValues,
  toPatch,
} from './wizard';

const shanghai = { provinceCode: '310000', province: '上海市', cityCode: '310100', city: '上海市' };
const shenzhen = { provinceCode: '440000', province: '广东省', cityCode: '440300', city: '深圳市' };
const stored: CreditInfo = {
  education: 0,
  maritalStatus: 1,
  annualIncome: 3,
  occupation: 11,
  loanPurpose: 5,
  residentialRegion: '310100',
  residentialAddress: '浦东新区世纪大道100号',
  companyName: '星河科技',
  companyRegion: '440300',
  companyAddress: '南山区科技园8栋',
  contacts: [
    { relationship: '0', name: '张三', phone: '13800000001' },
    { relationship: '4', name: '李四', phone: '13800000002' },
  ],
  auditStatus: 2,
  step: 'DONE',
};

describe('the pickers show every code of spec §3 with a Chinese label', () => {
  it('same codes as @lm/shared, in order', () => {
    const values = (o: { value: unknown }[]) => o.map((x) => x.value);
    expect(values(EDUCATION_OPTIONS)).toEqual(CREDIT_OPTION_CODES.education);
    expect(values(MARITAL_STATUS_OPTIONS)).toEqual(CREDIT_OPTION_CODES.maritalStatus);
    expect(values(ANNUAL_INCOME_OPTIONS)).toEqual(CREDIT_OPTION_CODES.annualIncome);
    expect(values(OCCUPATION_OPTIONS)).toEqual(CREDIT_OPTION_CODES.occupation);
    expect(values(LOAN_PURPOSE_OPTIONS)).toEqual(CREDIT_OPTION_CODES.loanPurpose);
    expect(values(CONTACT_RELATION_OPTIONS)).toEqual([...CONTACT_RELATIONSHIPS]);
    for (const o of [...EDUCATION_OPTIONS, ...OCCUPATION_OPTIONS, ...CONTACT_RELATION_OPTIONS]) {
      expect(o.label).toMatch(/^[\u4e00-\u9fa5\d\-万及以上下]+$/);
    }
  });
});

describe('wizard steps on the page', () => {
  it('opens at the server step; IDENTITY sends away; DONE opens the first step for review', () => {
    expect(firstFormStep('IDENTITY')).toBe('IDENTITY');
    expect(firstFormStep('INFORMATION')).toBe('INFORMATION');
    expect(firstFormStep('CONTACT')).toBe('CONTACT');
    expect(firstFormStep('BASE')).toBe('BASE');
    expect(firstFormStep('DONE')).toBe('INFORMATION');
  });

  it('after a save: the next step, or an earlier one still missing, DONE after BASE', () => {
    // First time through.
    expect(stepAfterSave('INFORMATION', 'CONTACT')).toBe('CONTACT');
    expect(stepAfterSave('CONTACT', 'BASE')).toBe('BASE');
    expect(stepAfterSave('BASE', 'DONE')).toBe('DONE');
    // Reviewing a complete record: one step at a time.
    expect(stepAfterSave('INFORMATION', 'DONE')).toBe('CONTACT');
    expect(stepAfterSave('CONTACT', 'DONE')).toBe('BASE');
    expect(stepAfterSave('INFORMATION', 'BASE')).toBe('CONTACT');
    // Something before is missing, or the face status is no longer passed.
    expect(stepAfterSave('BASE', 'CONTACT')).toBe('CONTACT');
    expect(stepAfterSave('BASE', 'INFORMATION')).toBe('INFORMATION');
    expect(stepAfterSave('CONTACT', 'IDENTITY')).toBe('IDENTITY');
  });

  it('previous step', () => {
    expect(previousStep('INFORMATION')).toBeNull();
    expect(previousStep('CONTACT')).toBe('INFORMATION');
    expect(previousStep('BASE')).toBe('CONTACT');
  });

  it('each step validates its own fields', () => {
    expect(STEP_FIELD_NAMES.INFORMATION).toEqual([
      ['education'],
      ['maritalStatus'],
      ['annualIncome'],
      ['occupation'],
      ['loanPurpose'],
    ]);
    expect(STEP_FIELD_NAMES.CONTACT).toHaveLength(6);
    expect(STEP_FIELD_NAMES.BASE.map((p) => p[0])).toEqual([
      'residentialRegion',
      'residentialAddress',
      'companyName',
      'companyRegion',
      'companyAddress',
    ]);
  });
});

describe('form values ↔ record', () => {
  it('a stored record fills the form (pickers hold [code]; regions from the table)', () => {
    const v = toFormValues(stored, { residentialRegion: shanghai, companyRegion: shenzhen });
    expect(v).toMatchObject({
      education: [0],
      maritalStatus: [1],
      occupation: [11],
      residentialRegion: shanghai,
      companyRegion: shenzhen,
      companyName: '星河科技',
    });
    expect(v.contacts).toEqual([
      { relationship: ['0'], name: '张三', phone: '13800000001' },
      { relationship: ['4'], name: '李四', phone: '13800000002' },
    ]);
  });

  it('an empty record: empty pickers and two blank contacts', () => {
    const v = toFormValues({ auditStatus: 2 });
    expect(v.education).toEqual([]);
    expect(v.contacts).toEqual([
      { relationship: [], name: '', phone: '' },
      { relationship: [], name: '', phone: '' },
    ]);
    expect(v.residentialRegion).toBeNull();
  });

  it('each step saves only its own fields, cleaned', () => {
    const v = toFormValues(stored, { residentialRegion: shanghai, companyRegion: shenzhen });
    expect(toPatch('INFORMATION', v)).toEqual({
      education: 0,
      maritalStatus: 1,
      annualIncome: 3,
      occupation: 11,
      loanPurpose: 5,
    });
    expect(
      toPatch('CONTACT', {
        contacts: [
          { relationship: ['1'], name: ' 王 五 ', phone: '138 0000 0003' },
          { relationship: ['2'], name: '赵六', phone: '13800000004' },
        ],
      }),
    ).toEqual({
      contacts: [
        { relationship: '1', name: '王五', phone: '13800000003' },
        { relationship: '2', name: '赵六', phone: '13800000004' },
      ],
    });
    expect(
      toPatch('BASE', { ...v, residentialAddress: ' 世纪大道\n100号 ', companyName: '星河  科技 ' }),
    ).toEqual({
      residentialRegion: '310100',
      residentialAddress: '世纪大道 100号',
      companyName: '星河 科技',
      companyRegion: '440300',
      companyAddress: '南山区科技园8栋',
    });
  });

  it("each step's body passes the server's schema unchanged", () => {
    const v = toFormValues(stored, { residentialRegion: shanghai, companyRegion: shenzhen });
    for (const step of FORM_STEPS) {
      const body = JSON.parse(JSON.stringify(toPatch(step, v)));
      expect(creditInfoPatchBody.parse(body)).toEqual(body);
    }
  });

  it('nothing picked (the picker gives [] or [null]) is left out, never sent as null', () => {
    const information = toPatch('INFORMATION', {
      education: [null],
      maritalStatus: [],
      annualIncome: [2],
    });
    expect(information).toStrictEqual({
      education: undefined,
      maritalStatus: undefined,
      annualIncome: 2,
      occupation: undefined,
      loanPurpose: undefined,
    });
    expect(JSON.parse(JSON.stringify(information))).toEqual({ annualIncome: 2 });
    expect(JSON.stringify(toPatch('BASE', { residentialRegion: null, companyName: ' 星河 ' }))).toBe(
      '{"companyName":"星河"}',
    );
  });

  it('the contacts go as the whole pair or not at all (a relationship not picked has no valid body)', () => {
    const second = { relationship: ['2'], name: '赵六', phone: '13800000004' };
    expect(
      toPatch('CONTACT', {
        contacts: [{ relationship: [null], name: '王五', phone: '13800000003' }, second],
      }),
    ).toEqual({});
    expect(toPatch('CONTACT', { contacts: [{ relationship: ['9'], name: '王五' }, second] })).toEqual({});
    expect(toPatch('CONTACT', {})).toEqual({});
  });

  it('round trip: the saved steps give the same record, so the shared step function says DONE', () => {
    const v = toFormValues(stored, { residentialRegion: shanghai, companyRegion: shenzhen });
    const record = { ...toPatch('INFORMATION', v), ...toPatch('CONTACT', v), ...toPatch('BASE', v) };
    const { auditStatus, step, ...fields } = stored;
    expect(record).toEqual(fields);
    expect(creditWizardStep({ ...record, auditStatus })).toBe(step);
  });
});
