import type { CreditWizardStep } from '@lm/shared/credit-info';

/**
 * The credit process of a linkType 3 channel (spec §4), one list for every page of it (issue 16.10:
 * identity verification showed four steps, the credit-information form then five others). Spec §4's
 * IDENTITY is the identity check (name + ID number) and the selfie; INFORMATION, CONTACT and BASE are
 * the credit-information wizard; after DONE comes the application form.
 */
export const CREDIT_PROCESS_STEPS = [
  { key: 'realName', title: '实名认证' },
  { key: 'face', title: '人脸识别' },
  { key: 'INFORMATION', title: '基本信息' },
  { key: 'CONTACT', title: '联系人' },
  { key: 'BASE', title: '居住单位' },
  { key: 'apply', title: '借款申请' },
] as const;

export type CreditProcessStep = (typeof CREDIT_PROCESS_STEPS)[number]['key'];

/** Where a wizard step (the server's `step`) is in the credit process. */
export function creditProcessStepOf(step: CreditWizardStep): CreditProcessStep {
  switch (step) {
    case 'IDENTITY':
      return 'face';
    case 'DONE':
      return 'apply';
    default:
      return step;
  }
}

/** The position (0-based) of a step in CREDIT_PROCESS_STEPS. */
export function creditProcessIndex(step: CreditProcessStep): number {
  return CREDIT_PROCESS_STEPS.findIndex((s) => s.key === step);
}
