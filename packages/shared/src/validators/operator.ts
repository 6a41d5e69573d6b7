/**
 * An operator's identity (ADR 057): the company a person contracts with through a channel, named in the
 * footer, the agreements, the privacy policy and the SMS signature. Patterns without zod, for the console's
 * form and for the server's schemas (packages/shared/src/schemas/operators.ts).
 */

/** Operator code: 2–32 characters, lower-case letters, digits or "-", starting with a letter. */
export const OPERATOR_CODE_PATTERN = /^[a-z][a-z0-9-]{1,31}$/;
export const OPERATOR_CODE_MSG = '运营主体编码为 2 到 32 位小写字母、数字或短横线，以字母开头';

/**
 * The SMS signature inside 【】: 2 to 12 Chinese characters, letters or digits, as the carriers and the
 * SMS gateways (Aliyun: 签名 2–12 个字符) accept it; no brackets, spaces or punctuation.
 */
export const SMS_SIGNATURE_PATTERN = /^[\u4e00-\u9fa5A-Za-z0-9]{2,12}$/;
export const SMS_SIGNATURE_MSG =
  '短信签名为 2 到 12 个汉字、字母或数字（不含【】、空格和标点），须与在短信服务商报备的签名一致';

/** A signature typed with its brackets (【星河融信】) is the text inside them. */
export function bareSmsSignature(value: string): string {
  const trimmed = value.trim();
  const inner = /^【(.*)】$/.exec(trimmed);
  return inner ? inner[1]!.trim() : trimmed;
}

/** How a signature is printed at the start of a message. */
export function smsSignatureText(signature: string): string {
  return `【${signature}】`;
}

/**
 * A website filing (ICP 备案) or ICP licence number: the province's one-character abbreviation, "ICP备" or
 * "ICP证", digits, "号", optionally a site suffix such as "-1" (京ICP备2026000001号, 粤ICP备12345678号-2,
 * 京ICP证030173号).
 */
export const FILING_NUMBER_PATTERN =
  /^[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼]ICP[备证]\d{6,12}号(-\d{1,3})?$/;
export const FILING_NUMBER_MSG =
  '备案号格式应为“京ICP备2026000001号”：省份简称 + ICP备（或 ICP证）+ 数字 + 号，可带“-1”等后缀';

/** Customer service number: 400/800 numbers, landlines with area code, mobile numbers, 95xxx. */
export const SERVICE_PHONE_PATTERN =
  /^(400-?\d{3}-?\d{4}|800-?\d{3}-?\d{4}|0\d{2,3}-?\d{7,8}|1[3-9]\d{9}|95\d{3,6})$/;
export const SERVICE_PHONE_MSG = '客服电话格式不正确，如 400-800-2026、010-12345678';
