/**
 * Operator identity (ADR 057), pure: the one record a channel's footer, agreements, privacy policy and SMS
 * signature all come from, and the configured operator that stands in for no channel, an unknown one or
 * one without a record.
 */
import type { OperatorInfo } from '@lm/shared/schemas/content';
import { smsSignatureText } from '@lm/shared/validators/operator';
import type { LicensedCompany } from '../../db/schema.ts';

/** Everything a person reads or receives that names the party they deal with. */
export interface Operator {
  /** The record's code; null for the configured operator. */
  code: string | null;
  /** The legal party (footer, agreements). */
  companyName: string;
  /** What the agreements call it ("以下简称…"). */
  shortName: string;
  filingNumber: string;
  /** Without its brackets. */
  smsSignature: string;
  address: string;
  servicePhone: string;
  email: string;
}

/** The settings of the configured operator (a subset of Env). */
export interface OperatorConfig {
  OPERATOR_NAME: string;
  OPERATOR_SHORT_NAME: string;
  OPERATOR_ADDRESS: string;
  OPERATOR_LICENCE: string;
  OPERATOR_SERVICE_PHONE: string;
  OPERATOR_EMAIL: string;
  OPERATOR_SMS_SIGNATURE: string;
}

/** The configured operator: for no channel, an unknown channel or a channel without an operator record. */
export function configuredOperator(config: OperatorConfig): Operator {
  return {
    code: null,
    companyName: config.OPERATOR_NAME,
    shortName: config.OPERATOR_SHORT_NAME,
    filingNumber: config.OPERATOR_LICENCE,
    smsSignature: config.OPERATOR_SMS_SIGNATURE,
    address: config.OPERATOR_ADDRESS,
    servicePhone: config.OPERATOR_SERVICE_PHONE,
    email: config.OPERATOR_EMAIL,
  };
}

/** The operator as `GET /api/content/operator` and every agreement answer it. */
export function operatorInfo(op: Operator): OperatorInfo {
  return {
    name: op.companyName,
    shortName: op.shortName,
    address: op.address,
    licence: op.filingNumber,
    servicePhone: op.servicePhone,
    email: op.email,
  };
}

/** The licensed-company record a footer shows (spec §1). */
export function footerOf(op: Pick<Operator, 'companyName' | 'filingNumber'>): LicensedCompany {
  return { companyName: op.companyName, filingNumber: op.filingNumber };
}

/** The signature at the start of an SMS: 【…】. */
export function smsSignatureOf(op: Pick<Operator, 'smsSignature'>): string {
  return smsSignatureText(op.smsSignature);
}
