/** Spec §3 ad placements (entranceType). Zod-free: the H5 imports it; schemas/product.ts builds on it. */

/** Spec §3 ad placement (entranceType) 0–7. */
export const AD_PLACEMENTS = {
  UNKNOWN: 0,
  HOME_INSERTION: 1,
  HOME_POPUP: 2,
  TAIL: 3,
  TOP_RECOMMEND: 4,
  HOME_LIST: 5,
  PRODUCT_LIST: 6,
  RANDOM_RECOMMEND: 7,
} as const;
export type AdPlacement = (typeof AD_PLACEMENTS)[keyof typeof AD_PLACEMENTS];

export const AD_PLACEMENT_LABELS: Record<AdPlacement, string> = {
  0: '未知',
  1: '首页插屏',
  2: '首页弹窗',
  3: '尾部',
  4: '顶部推荐',
  5: '首页列表',
  6: '产品列表',
  7: '随机推荐',
};
