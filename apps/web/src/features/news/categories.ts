/**
 * The categories of the daily news, in the order the tabs show them. Same list as NEWS_CATEGORIES of
 * @lm/shared/schemas/content (kept here so the page does not load zod; a test keeps them equal).
 */
export const NEWS_CATEGORIES = ['信用知识', '借款常识', '理性借贷', '防骗提醒', '个人信息保护'] as const;
export type NewsCategory = (typeof NEWS_CATEGORIES)[number];

export function isNewsCategory(value: string | null | undefined): value is NewsCategory {
  return (NEWS_CATEGORIES as readonly string[]).includes(value ?? '');
}
