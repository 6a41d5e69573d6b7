/**
 * The one paragraph above the lenders of an authorisation page: how consent works there. The second
 * authorisation (spec §4) says it in its own words — that the person has already consented, and may
 * skip to the result — instead of adding a second paragraph repeating the first (issue 44.16).
 */
export function authorizeHint(count: number, second = false): string {
  return second
    ? `您的授权已提交。根据您的资质，以下${count}家机构也可为您提供借款服务，是否申请由您决定：请阅读各机构的授权书并勾选，未勾选的机构不会收到任何信息；不需要可直接跳过，查看申请结果。`
    : `以下${count}家机构可为您提供借款服务。请逐一阅读各机构的授权书并勾选，您的信息只会提供给您勾选的机构，未勾选的机构不会收到任何信息。`;
}

/** The second authorisation's way out without consenting: the result of the first consent. */
export const SKIP_TO_RESULT = '跳过，查看结果';
