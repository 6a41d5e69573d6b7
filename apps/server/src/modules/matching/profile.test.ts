import { APPLICATION_OPTION_CODES, type ApplicationForm } from '@lm/shared/schemas/application';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CONDITIONS } from './fixtures.ts';
import { APPLY_LIMIT_FEN, PHONE_BRAND_CODES, phoneBrandOf, profileFromForm } from './profile.ts';

const FORM: ApplicationForm = {
  adChannelCode: 'default',
  isHuaWeiPhone: false,
  applyLimit: 2,
  job: 1,
  payoffForm: 1,
  socialSecurity: 2,
  housingFund: 1,
  insurance: 2,
  houseProperty: 2,
  carProperty: 1,
  sesameCredit: 3,
  creditInvestigation: 1,
  realName: '张三',
  identity: '53010219200508011X',
  workCity: '深圳市',
  workCityCode: '440300',
};

describe('profileFromForm', () => {
  it('maps the H5 option codes to the engine values', () => {
    // FORM answers job to credit record as the sample applicant does.
    expect(profileFromForm(FORM)).toEqual({
      applyLimitFen: 3_000_000,
      workCityCode: '440300',
      identity: '53010219200508011X',
      ...SAMPLE_CONDITIONS,
    });
  });

  it('accepts every code the shared schema accepts', () => {
    const fields = Object.keys(APPLICATION_OPTION_CODES) as (keyof typeof APPLICATION_OPTION_CODES)[];
    for (const field of fields) {
      for (const code of APPLICATION_OPTION_CODES[field]) {
        expect(() => profileFromForm({ ...FORM, [field]: code })).not.toThrow();
      }
    }
    expect(Object.keys(APPLY_LIMIT_FEN).map(Number)).toEqual([...APPLICATION_OPTION_CODES.applyLimit]);
  });

  it('refuses a code outside the enumeration', () => {
    expect(() => profileFromForm({ ...FORM, job: 9 })).toThrow(/job/);
  });

  it('takes the brand from the phone model, else from isHuaWeiPhone', () => {
    expect(profileFromForm({ ...FORM, isHuaWeiPhone: true }).phoneBrand).toBe('huawei');
    expect(profileFromForm({ ...FORM, isHuaWeiPhone: true }, 'iPhone15,2').phoneBrand).toBe('iphone');
  });
});

describe('phoneBrandOf', () => {
  it.each([
    ['iPhone14,5', 'iphone'],
    ['HUAWEI P60', 'huawei'],
    ['HONOR 90', 'honor'],
    ['OPPO Find X7', 'oppo'],
    ['vivo X100', 'vivo'],
    ['Redmi K70', 'xiaomi'],
    ['SM-S9180', 'samsung'],
    ['OnePlus 12', 'oneplus'],
    ['Nokia', 'other'],
  ] as const)('%s → %s (code %s)', (model, brand) => {
    expect(phoneBrandOf(model)).toBe(brand);
    expect(PHONE_BRAND_CODES[brand]).toMatch(/^0[1-9]$/);
  });
  it('is undefined without a model', () => {
    expect(phoneBrandOf(undefined)).toBeUndefined();
    expect(phoneBrandOf('')).toBeUndefined();
  });
});
