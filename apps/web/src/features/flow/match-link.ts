/**
 * What a re-match link may carry (issue 44.6): the run's opaque `matchKey` and the channel code the
 * ad link needs — nothing the person answered. Spec §2/§4 list applyLimit, workCity (and the result)
 * among the options of `/fill-information/rematch-waiting` and `/fill-information/common-authorize`;
 * no page reads them (the match is loaded by its key, the answers stay on the server, GET
 * /api/user/info/detail), so our links leave them out, and a link that still carries them is not
 * passed on. docs/h5.md "Links carry the key, not the answers".
 */

/** The only options our re-match and authorisation links carry. */
export const MATCH_LINK_PARAMS = ['adChannelCode', 'matchKey'] as const;

export type MatchLinkOptions = Partial<Record<(typeof MATCH_LINK_PARAMS)[number], string>>;

/**
 * The link options for the match `matchKey` on channel `adChannelCode`, from whatever `from` holds
 * (a decision's facts, a page's own link options): only MATCH_LINK_PARAMS, only non-empty strings.
 */
export function matchLinkOptions(from: Record<string, unknown>): MatchLinkOptions {
  const out: MatchLinkOptions = {};
  for (const key of MATCH_LINK_PARAMS) {
    const value = from[key];
    if (typeof value === 'string' && value.trim() !== '') out[key] = value.trim();
  }
  return out;
}
