import { CREDIT_WIZARD_STEPS } from '@lm/shared/credit-info';
import { describe, expect, it } from 'vitest';
import { CREDIT_PROCESS_STEPS, creditProcessIndex, creditProcessStepOf } from './steps';

describe('the credit process steps (one stepper for identity, face, wizard and application)', () => {
  it('lists identity and face first, the wizard steps in the spec’s order, the application last', () => {
    expect(CREDIT_PROCESS_STEPS.map((s) => s.title)).toEqual([
      '实名认证',
      '人脸识别',
      '基本信息',
      '联系人',
      '居住单位',
      '借款申请',
    ]);
    expect(new Set(CREDIT_PROCESS_STEPS.map((s) => s.key)).size).toBe(CREDIT_PROCESS_STEPS.length);
  });

  it('places every wizard step of spec §4, in order, and nowhere twice', () => {
    const positions = CREDIT_WIZARD_STEPS.map((s) => creditProcessIndex(creditProcessStepOf(s)));
    expect(positions).toEqual([1, 2, 3, 4, 5]);
    expect(creditProcessStepOf('IDENTITY')).toBe('face');
    expect(creditProcessStepOf('CONTACT')).toBe('CONTACT');
    expect(creditProcessStepOf('DONE')).toBe('apply');
    expect(creditProcessIndex('realName')).toBe(0);
  });
});
