import type { partners, products } from '../../db/schema.ts';
import type { InstitutionType, LinkType, Product } from './types.ts';

export type ProductRow = typeof products.$inferSelect;
export type PartnerRow = typeof partners.$inferSelect;

function institutionType(value: number): InstitutionType {
  if (value === 1 || value === 2 || value === 3 || value === 4) return value;
  throw new Error(`invalid institution type ${value}`);
}

function linkType(value: number): LinkType {
  if (Number.isInteger(value) && value >= 1 && value <= 9) return value as LinkType;
  throw new Error(`invalid link type ${value}`);
}

/** A product row (with its partner's legal name) as the matching engine sees it. Ids become strings. */
export function toEngineProduct(row: ProductRow, partnerLegalName: string): Product {
  return {
    id: String(row.id),
    productName: row.productName,
    partnerId: String(row.partnerId),
    partnerLegalName,
    companyType: row.companyType,
    institutionType: institutionType(row.institutionType),
    thirdpartyType: row.thirdpartyType,
    linkType: linkType(row.linkType),
    amountMinFen: row.amountMinFen,
    amountMaxFen: row.amountMaxFen,
    termMinMonths: row.termMinMonths,
    termMaxMonths: row.termMaxMonths,
    aprBps: row.aprBps,
    status: row.status,
    activeHours: row.activeHours ?? null,
    dailyCap: row.dailyCap,
    totalCap: row.totalCap,
    priority: row.priority,
    priceFen: row.priceFen,
    rules: row.rules,
  };
}

/**
 * `yqlWholeProcessBumpVO` of a product as the H5 and partners read it (spec: thirdpartyType 7 is a whole-process
 * partner product, with `yqlWholeProcessBumpVO.partnerProductName`): for type 7 always present, the partner's name
 * of the product or else ours; null for every other type. The catalogue and the match offers answer the same.
 */
export function wholeProcessBump(
  row: Pick<ProductRow, 'thirdpartyType' | 'partnerProductName' | 'productName'>,
): { partnerProductName: string } | null {
  return row.thirdpartyType === 7 ? { partnerProductName: row.partnerProductName ?? row.productName } : null;
}

/** What every listing of a product starts with (the catalogue's items, the match offers): id, names, types. */
export function productHead(row: ProductRow) {
  return {
    id: String(row.id),
    productName: row.productName,
    companyType: row.companyType,
    institutionType: row.institutionType,
    thirdpartyType: row.thirdpartyType,
    yqlWholeProcessBumpVO: wholeProcessBump(row),
  };
}
