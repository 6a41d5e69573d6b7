/**
 * Values of @lm/shared/schemas/site the browser needs, repeated here because that module builds zod
 * schemas (download.test.ts keeps them equal).
 */
export const DOWNLOAD_PAGE_CODE = 'downloadPage';
export const APP_PLATFORM_LABELS = { android: '安卓', ios: 'iOS' } as const;
