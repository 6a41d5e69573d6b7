import { INFO_AGREEMENT, SHAREABLE_FIELD_LABELS, SHARING_PURPOSE } from '@lm/shared/schemas/matching';
import { textHash } from '../../lib/text-hash.ts';
import type { Operator } from '../operators/rules.ts';

/**
 * Version of the per-lender information-sharing agreement; bump it with every change of the text. 2026.12:
 * the text names the operator of the channel the person came through, who provides the data (ADR 057).
 */
export const INFO_AGREEMENT_VERSION = '2026.12';

/** The party that provides the data: the operator of the channel the consent is given through. */
export type AgreementOperator = Pick<
  Operator,
  'companyName' | 'shortName' | 'filingNumber' | 'servicePhone' | 'email'
>;

export interface AgreementLender {
  legalName: string;
  licenceNumber: string;
  contactName: string;
  /** Masked. */
  contactPhone: string;
}

export interface AgreementProduct {
  productName: string;
  aprBps: number;
  sharedFields: readonly string[];
}

export interface RenderedAgreement {
  id: string;
  title: string;
  version: string;
  content: string;
  /** SHA-256 hex of `content`. */
  textHash: string;
}

/** Chinese labels of the fields, de-duplicated (workCity and workCityCode are one item), in order. */
export function fieldLabels(fields: readonly string[]): string[] {
  const labels: string[] = [];
  for (const f of fields) {
    const label = (SHAREABLE_FIELD_LABELS as Record<string, string>)[f] ?? f;
    if (!labels.includes(label)) labels.push(label);
  }
  return labels;
}

export const formatApr = (bps: number) => `${(bps / 100).toFixed(2)}%`;

/**
 * The information-sharing agreement for one lender: who provides the data (the operator of the channel),
 * who receives which data, why, at what price of credit, and how to withdraw. Deterministic: the same
 * operator, lender and product give the same text (and hash), so a consent's hash identifies the exact text.
 */
export function renderInfoAgreement(
  operator: AgreementOperator,
  lender: AgreementLender,
  product: AgreementProduct,
): RenderedAgreement {
  const fields = fieldLabels(product.sharedFields).join('、');
  const content = [
    `${INFO_AGREEMENT.title}（版本 ${INFO_AGREEMENT_VERSION}）`,
    '',
    `提供方：${operator.companyName}（以下简称“${operator.shortName}”，备案号 ${operator.filingNumber}），客服电话：${operator.servicePhone}，个人信息保护联系邮箱：${operator.email}。`,
    `一、接收方：${lender.legalName}（${lender.licenceNumber}），联系人：${lender.contactName}，联系电话：${lender.contactPhone}。`,
    `二、申请产品：${product.productName}，综合年化利率（含全部费用）${formatApr(product.aprBps)}。`,
    `三、共享的个人信息：${fields}。`,
    `四、目的：${SHARING_PURPOSE}。接收方不得将上述信息用于其他目的，不得向第三方提供。`,
    `五、方式：${operator.shortName}在您勾选并确认后，通过加密通道一次性向接收方传送上述信息；您未勾选的机构不会收到任何信息。`,
    `六、您的权利：您可以通过“我的-安全中心”或联系${operator.shortName}客服撤回本授权，撤回不影响撤回前已进行的处理；接收方应按法律规定期限保存并在期满后删除您的信息。`,
    '七、本授权依据《中华人民共和国个人信息保护法》第二十三条单独取得，仅对上述接收方有效。',
  ].join('\n');
  return {
    id: INFO_AGREEMENT.id,
    title: INFO_AGREEMENT.title,
    version: INFO_AGREEMENT_VERSION,
    content,
    textHash: textHash(content),
  };
}
