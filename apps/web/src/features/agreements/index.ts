/**
 * The 13 agreement pages of spec §2. Each text is its own module (its own chunk): a page loads only
 * the text it shows.
 */
import type { AGREEMENT_PAGES } from '@lm/shared/channel';
import type { AgreementText } from './types';

export type { AgreementSection, AgreementText } from './types';

export type AgreementKey = (typeof AGREEMENT_PAGES)[number]['key'];

type Loader = () => Promise<{ AGREEMENT: AgreementText }>;

export const AGREEMENT_TEXT_LOADERS: Record<AgreementKey, Loader> = {
  'register-agreement': () => import('./texts/register-agreement'),
  'privacy-agreement': () => import('./texts/privacy-agreement'),
  'information-agreement': () => import('./texts/information-agreement'),
  'info-audit-agreement': () => import('./texts/info-audit-agreement'),
  'jkr-general-agreement': () => import('./texts/jkr-general-agreement'),
  'jkr-student-agreement': () => import('./texts/jkr-student-agreement'),
  'jkr-privacy-agreement': () => import('./texts/jkr-privacy-agreement'),
  'jkr-register-agreement': () => import('./texts/jkr-register-agreement'),
  'clarification-announcement': () => import('./texts/clarification-announcement'),
  'audit-agreement-privacy': () => import('./texts/audit-agreement-privacy'),
  'audit-agreement-register': () => import('./texts/audit-agreement-register'),
  'audit-agreement-contact': () => import('./texts/audit-agreement-contact'),
  'yq-shopkeeper-agreement': () => import('./texts/yq-shopkeeper-agreement'),
};

export function loadAgreementText(key: AgreementKey): Promise<AgreementText> {
  return AGREEMENT_TEXT_LOADERS[key]().then((m) => m.AGREEMENT);
}
