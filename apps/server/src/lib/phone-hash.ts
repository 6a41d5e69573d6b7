import { createHmac } from 'node:crypto';

/**
 * The salted phone hash a lender's duplicate pre-check receives (and the partner sandbox keeps for its
 * leads): hex HMAC-SHA256(the partner's signing secret, phone). Not the platform's own blind index of
 * phones (lib/crypto.ts blindIndex), which lenders never see.
 */
export function phoneHash(secret: string, phone: string): string {
  return createHmac('sha256', secret).update(phone).digest('hex');
}
