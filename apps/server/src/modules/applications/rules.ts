import type { SubmitStatus } from '@lm/shared/schemas/application';

/**
 * Submit status (spec §3: 0 unsubmitted, 1 submitted-unauthorized, 10 authorized) derived from
 * users.userInfoStatus until the save / match / consent work of issue 4 records it itself:
 * 0 → 0, 1 → 1, 2 → 10; anything else counts as unsubmitted.
 */
export function submitStatusOf(userInfoStatus: number): SubmitStatus {
  if (userInfoStatus === 1) return 1;
  if (userInfoStatus === 2) return 10;
  return 0;
}

/** Spec §3 link type 3: CRM integration (the credit flow: identity and face verification). */
export const CRM_LINK_TYPE = 3;

/**
 * User form config (GET /api/app/userInfo/userFormConfig):
 * - creditStatus 1 when the channel (the query's adChannelCode, else the person's own channel) has
 *   link type 3 (CRM credit flow, e.g. demo-crm), else 0 (also for an unknown channel);
 * - diversionStatus 1: diversion to the matching flow is always open (no per-channel switch yet);
 * - coverStatus: the person's users.coverStatus (1 CanCover).
 */
export function userFormConfig(linkType: number | null, coverStatus: number) {
  return {
    creditStatus: linkType === CRM_LINK_TYPE ? (1 as const) : (0 as const),
    diversionStatus: 1 as const,
    coverStatus,
  };
}
