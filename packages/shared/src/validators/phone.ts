/** Mainland mobile number: 11 digits, 1, then 3–9, then 9 digits (spec §5). */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;

/** A contact number: a mobile number or a landline with area code (0xx-xxxxxxx). */
export const CONTACT_PHONE_PATTERN = /^(1[3-9]\d{9}|0\d{2,3}-?\d{7,8})$/;

export function isValidPhone(value: unknown): value is string {
  return typeof value === 'string' && PHONE_PATTERN.test(value);
}

export const PHONE_REQUIRED_MSG = '请输入手机号';
export const PHONE_FORMAT_MSG = '手机号格式不正确';
