/**
 * Landing layouts by skin (spec §1, §3: skins 8–23, default skin17). Sixteen skins share four layouts;
 * the channel colour (theme) is independent of the layout.
 *
 * | layout            | skins           | what it looks like                                                   |
 * |-------------------|-----------------|----------------------------------------------------------------------|
 * | `hero-card`       | 17 (default), 9, 13, 21 | gradient hero with the headline and a wallet illustration, the login card over its edge, three highlights |
 * | `amount-dial`     | 8, 11, 15, 19   | a gauge showing the maximum amount, the login card, a worked repayment example |
 * | `steps-list`      | 10, 14, 18, 22  | light header with a phone illustration, the login card, "三步申请" steps |
 * | `banner-benefits` | 12, 16, 20, 23  | full-width banner illustration, the login card, a 2×2 benefits grid  |
 */
import { DEFAULT_SKIN } from '@lm/shared/channel';

export const LANDING_LAYOUTS = ['hero-card', 'amount-dial', 'steps-list', 'banner-benefits'] as const;
export type LandingLayoutName = (typeof LANDING_LAYOUTS)[number];

export const SKIN_LAYOUTS: Readonly<Record<number, LandingLayoutName>> = {
  8: 'amount-dial',
  9: 'hero-card',
  10: 'steps-list',
  11: 'amount-dial',
  12: 'banner-benefits',
  13: 'hero-card',
  14: 'steps-list',
  15: 'amount-dial',
  16: 'banner-benefits',
  17: 'hero-card',
  18: 'steps-list',
  19: 'amount-dial',
  20: 'banner-benefits',
  21: 'hero-card',
  22: 'steps-list',
  23: 'banner-benefits',
};

/** The landing layout of a skin; unknown skins get the default skin's layout. */
export function landingLayoutForSkin(skin: number | null | undefined): LandingLayoutName {
  return SKIN_LAYOUTS[skin ?? DEFAULT_SKIN] ?? SKIN_LAYOUTS[DEFAULT_SKIN]!;
}
