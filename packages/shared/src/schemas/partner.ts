import { z } from 'zod';

/**
 * Calls partners make to us (POST /api/partner/callback, signed like lead delivery): a lead's status (match
 * callback, joint login) or the confirmation that a deletion notice was carried out (docs/privacy.md).
 */
export const leadCallbackBody = z.object({
  leadId: z.string().min(1).max(64),
  status: z.string().min(1).max(32),
  partnerRef: z.string().max(128).optional(),
  /** Joint login (link type 8): where the person continues at the lender. */
  loginUrl: z.string().max(2048).optional(),
  message: z.string().max(500).optional(),
});

/** The lender confirms it deleted the data of a deletion notice. */
export const deletionCallbackBody = z.object({
  event: z.literal('data.deleted'),
  noticeId: z.string().min(1).max(64),
});

export const partnerCallbackBody = z.union([deletionCallbackBody, leadCallbackBody]);
export type LeadCallbackBody = z.infer<typeof leadCallbackBody>;

/** The development lender (PARTNER_SANDBOX): its code in the path, and its duplicate pre-check body. */
export const sandboxCodeParams = z.object({ code: z.string().regex(/^[a-z0-9-]{1,40}$/) });
export const dupCheckBody = z.object({ phoneHash: z.string().regex(/^[0-9a-f]{64}$/) });
