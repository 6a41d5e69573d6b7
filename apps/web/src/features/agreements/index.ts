/**
 * The 13 agreement pages of spec §2. Their texts live on the server (GET /api/agreement/:code, versioned in
 * the database with the details of the channel's operator filled in, ADR 057); a page fetches only the text it
 * shows.
 */
import type { AGREEMENT_PAGES } from '@lm/shared/channel';

export type AgreementKey = (typeof AGREEMENT_PAGES)[number]['key'];

export { type AgreementData, agreementQueryOptions, getAgreement, useAgreement } from './api/get-agreement';
export { getOperator, type OperatorInfo, operatorQueryOptions, useOperator } from './api/get-operator';
export { AgreementDocument } from './components/agreement-document';
