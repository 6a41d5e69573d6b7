/**
 * The second authorisation (spec §4): after the first consent, when the match result's companyType is
 * KAInstitution or RegionInstitution and the channel code is one of three specific codes, the H5
 * re-matches with the second-match type (POST /api/user/info/direct/match, directMatchType 3) and, when
 * the second match has a product (an id), offers those lenders at /seconed-match-authorize.
 *
 * The spec does not name the three codes. Until channels carry a flag for it, they are these demo
 * channels of apps/server/src/modules/channels/seed.ts (default flow, skins 8–10): open
 * http://localhost:8080/?adChannelCode=demo-skin8 to see it. Operators' codes go here.
 */
export const SECOND_AUTHORIZE_CHANNEL_CODES: readonly string[] = ['demo-skin8', 'demo-skin9', 'demo-skin10'];

export const SECOND_AUTHORIZE_COMPANY_TYPES: readonly string[] = ['KAInstitution', 'RegionInstitution'];

export interface SecondAuthorizeFacts {
  /** companyType of the (first) match result. */
  companyType: string | null;
  adChannelCode: string;
  /** The second authorisation was already opened in this session (sessionStorage openSecondAuthorize). */
  alreadyOpened: boolean;
}

export function shouldOpenSecondAuthorize(
  facts: SecondAuthorizeFacts,
  codes: readonly string[] = SECOND_AUTHORIZE_CHANNEL_CODES,
): boolean {
  return (
    !facts.alreadyOpened &&
    facts.companyType !== null &&
    SECOND_AUTHORIZE_COMPANY_TYPES.includes(facts.companyType) &&
    codes.includes(facts.adChannelCode)
  );
}
