import type { ProtocolData } from '@lm/shared/schemas/matching';
import { api } from '@/lib/api-client';

/** protocolData of @lm/shared: an agreement rendered for one lender (the text a consent records). */
export type LenderAgreement = ProtocolData;

/**
 * GET /api/user/info/protocol/{id}?productId&adChannelCode — agreement `id` rendered for that product's lender
 * as a consent given through the channel records it (naming the channel's operator, ADR 057).
 */
export function fetchLenderAgreement(
  id: string,
  productId: string,
  adChannelCode: string,
): Promise<LenderAgreement> {
  return api.get<LenderAgreement>(`/api/user/info/protocol/${encodeURIComponent(id)}`, {
    params: { productId, adChannelCode },
    silent: true,
  });
}
