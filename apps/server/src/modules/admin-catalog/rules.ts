import type { RuleTesterProfile } from '@lm/shared/schemas/admin-catalog';
import { isAllowedPartnerUrl } from '../../lib/partner-url.ts';
import { profileFromForm } from '../matching/profile.ts';
import { canPublish, type PublishProblem } from '../matching/publish.ts';
import type { Product, Profile } from '../matching/types.ts';

/** Link types that send the person to the lender's page (target URL required on an allowed host). */
export const REDIRECT_LINK_TYPES: ReadonlySet<number> = new Set([1, 4]);

/**
 * Partner endpoints (lead API, duplicate pre-check): public https addresses only, checked by URL
 * (`endpointProblem`) and by DNS answer (`endpointAddressProblem`) — lib/outbound-address.ts, ADR 019.
 */
export { endpointAddressProblem, endpointProblem } from '../../lib/outbound-address.ts';

/** Why a product's target URL is refused, or null: its host must be one of the lender's allowed hosts. */
export function targetUrlProblem(
  url: string | null | undefined,
  allowedHosts: readonly string[],
): string | null {
  if (!url) return null;
  if (isAllowedPartnerUrl(url, allowedHosts)) return null;
  return allowedHosts.length === 0
    ? '该机构尚未配置允许的域名，不能设置跳转链接'
    : `跳转链接的域名必须是该机构允许的域名之一（${allowedHosts.join('、')}）`;
}

export interface PublishContext {
  partnerStatus: 'active' | 'suspended';
  allowedHosts: readonly string[];
  targetUrl: string | null;
}

/**
 * Everything that prevents publishing, in Chinese: the engine's canPublish (APR above 24 %, no lender
 * legal name, bad ranges …), plus what the console knows: a suspended lender, and a redirect product
 * (link types 1, 4) without a target URL on the lender's allowed hosts.
 */
export function publishProblems(
  product: Parameters<typeof canPublish>[0] & Pick<Product, 'linkType'>,
  ctx: PublishContext,
): PublishProblem[] | { code: string; text: string }[] {
  const problems: { code: string; text: string }[] = [...canPublish(product)];
  if (ctx.partnerStatus !== 'active') {
    problems.push({ code: 'PARTNER_SUSPENDED', text: '合作机构已暂停合作，不能上架其产品' });
  }
  if (REDIRECT_LINK_TYPES.has(product.linkType) && !isAllowedPartnerUrl(ctx.targetUrl, ctx.allowedHosts)) {
    problems.push({
      code: 'TARGET_URL_INVALID',
      text: 'H5跳转类产品须填写跳转链接，且域名在机构允许的域名内',
    });
  }
  return problems;
}

/**
 * The engine's profile of a rule-tester sample, mapped by profileFromForm exactly as a real form is
 * (same option tables, same amount midpoints); the ID number, when given and valid, decides the age,
 * else the stated `age`.
 */
export function testerProfile(p: RuleTesterProfile): Profile {
  const { identity, age, ...options } = p;
  return { ...profileFromForm({ ...options, identity: identity || undefined }), age };
}

/** What the channel changes for a person of `cityCode` (shown above the tester's results). */
export function channelNotes(
  channel: { channelStatus: number; excludeCityCodes: readonly string[] } | null,
  cityCode: string,
): string[] {
  if (!channel) return [];
  const notes: string[] = [];
  if (channel.channelStatus === 0) notes.push('该渠道已关闭：用户进入时会被重新加载，不会走到匹配');
  if (channel.excludeCityCodes.includes(cityCode))
    notes.push('该渠道排除了所在城市：API类渠道的用户登录后直接进入注册成功页，不参与匹配');
  return notes;
}
