import { HHMM_PATTERN } from '@lm/shared/time';
import type { Product } from './types.ts';

/** Annualised rate ceiling, all costs included: 24 % a year. */
export const MAX_APR_BPS = 2400;

export type PublishProblemCode =
  | 'APR_MISSING'
  | 'APR_TOO_HIGH'
  | 'LEGAL_NAME_MISSING'
  | 'AMOUNT_RANGE_INVALID'
  | 'TERM_RANGE_INVALID'
  | 'ACTIVE_HOURS_INVALID';

export interface PublishProblem {
  code: PublishProblemCode;
  text: string;
}

/** Minutes after midnight of an `HH:MM` time (00:00–23:59), or null when malformed. */
export function parseHhmm(value: string): number | null {
  const m = HHMM_PATTERN.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/**
 * What prevents publishing a product; empty when it may be published. Also applied by the matching,
 * so a product that slipped through (e.g. edited in the database) is never offered.
 */
export function canPublish(
  product: Pick<
    Product,
    | 'aprBps'
    | 'partnerLegalName'
    | 'amountMinFen'
    | 'amountMaxFen'
    | 'termMinMonths'
    | 'termMaxMonths'
    | 'activeHours'
  >,
): PublishProblem[] {
  const problems: PublishProblem[] = [];
  const apr = product.aprBps;
  if (apr === null || apr === undefined || !Number.isFinite(apr) || apr < 0) {
    problems.push({ code: 'APR_MISSING', text: '未填写综合年化利率' });
  } else if (apr > MAX_APR_BPS) {
    problems.push({
      code: 'APR_TOO_HIGH',
      text: `综合年化利率${(apr / 100).toFixed(2)}%超过24%，不能上架`,
    });
  }
  if (!product.partnerLegalName || product.partnerLegalName.trim() === '') {
    problems.push({ code: 'LEGAL_NAME_MISSING', text: '未填写放款机构的法定名称' });
  }
  if (
    !Number.isFinite(product.amountMinFen) ||
    !Number.isFinite(product.amountMaxFen) ||
    product.amountMinFen <= 0 ||
    product.amountMinFen > product.amountMaxFen
  ) {
    problems.push({
      code: 'AMOUNT_RANGE_INVALID',
      text: '借款金额范围无效（最低额度须大于0且不高于最高额度）',
    });
  }
  if (
    !Number.isInteger(product.termMinMonths) ||
    !Number.isInteger(product.termMaxMonths) ||
    product.termMinMonths <= 0 ||
    product.termMinMonths > product.termMaxMonths
  ) {
    problems.push({
      code: 'TERM_RANGE_INVALID',
      text: '借款期限范围无效（最短期限须大于0且不长于最长期限）',
    });
  }
  if (
    product.activeHours &&
    (parseHhmm(product.activeHours.from) === null || parseHhmm(product.activeHours.to) === null)
  ) {
    problems.push({ code: 'ACTIVE_HOURS_INVALID', text: '营业时段格式应为HH:MM' });
  }
  return problems;
}
