/**
 * Phones carried by a login link (spec §3 field-name constants rp, phone, mobile, rsaPhone; §7 "phone
 * parameters may be carried encrypted in the link (three query keys)").
 *
 * | query key          | meaning                                                     |
 * |--------------------|-------------------------------------------------------------|
 * | `encryptionMobile` | partner-encrypted phone; `source` names the partner         |
 * | `rp`               | the same, older partners' key                               |
 * | `rsaPhone`         | the same, RSA-era partners' key                             |
 * | `phone`, `mobile`  | a clear phone, only prefilled (the visitor can still edit) |
 *
 * Encrypted phones are never decrypted in the browser (decision 008): the server exchanges them via
 * `GET /api/getEncryptionMobile` for the masked phone and a ticket, and the ticket is sent as
 * `encryptionMobile` to sendPhoneVerifyCode and login. When the link has no `source`, the channel code
 * is sent as the source (partners are set up with their channel code as source).
 */
import { isValidPhone } from '@lm/shared/validators/phone';

export const ENCRYPTED_PHONE_KEYS = ['encryptionMobile', 'rp', 'rsaPhone'] as const;
export const CLEAR_PHONE_KEYS = ['phone', 'mobile'] as const;

export type PhoneLink =
  | {
      kind: 'encrypted';
      key: (typeof ENCRYPTED_PHONE_KEYS)[number];
      encryptionMobile: string;
      source: string | null;
    }
  | { kind: 'clear'; phone: string };

export function readPhoneLink(query: URLSearchParams): PhoneLink | null {
  for (const key of ENCRYPTED_PHONE_KEYS) {
    // URLSearchParams turns '+' into ' ': base64 ciphertexts need it back.
    const value = query.get(key)?.trim().replace(/ /g, '+');
    if (value)
      return { kind: 'encrypted', key, encryptionMobile: value, source: query.get('source')?.trim() || null };
  }
  for (const key of CLEAR_PHONE_KEYS) {
    const value = query.get(key)?.trim();
    if (value && isValidPhone(value)) return { kind: 'clear', phone: value };
  }
  return null;
}
