import type { DownloadPageConfig, PageConfigData } from '@lm/shared/schemas/site';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { DOWNLOAD_PAGE_CODE } from '../constants';

/** The card's copy when the configuration is missing or unreadable. */
export const DEFAULT_DOWNLOAD_PAGE: DownloadPageConfig = {
  title: '下载App，借款更方便',
  subtitle: '申请进度实时提醒，额度变化第一时间知道',
  features: ['申请进度实时查看', '还款提醒不逾期', '账户安全保护'],
};

/** Reads the fields of a `downloadPage` configuration, falling back field by field. */
export function readDownloadPageConfig(config: Record<string, unknown> | undefined): DownloadPageConfig {
  const text = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() ? v.trim() : fallback);
  const features = Array.isArray(config?.features)
    ? config.features.filter((f): f is string => typeof f === 'string' && f.trim() !== '').slice(0, 6)
    : [];
  return {
    title: text(config?.title, DEFAULT_DOWNLOAD_PAGE.title),
    subtitle: text(config?.subtitle, DEFAULT_DOWNLOAD_PAGE.subtitle),
    features: features.length ? features : DEFAULT_DOWNLOAD_PAGE.features,
  };
}

/** GET /api/pageConfig/getPageConfigByCode?code=downloadPage — silent (the card has defaults). */
export function getDownloadPageConfig(signal?: AbortSignal): Promise<DownloadPageConfig> {
  return api
    .get<PageConfigData>('/api/pageConfig/getPageConfigByCode', {
      params: { code: DOWNLOAD_PAGE_CODE },
      silent: true,
      skipAuth: true,
      cancelPrevious: false,
      ...(signal ? { signal } : {}),
    })
    .then((page) => readDownloadPageConfig(page.config));
}

export const downloadPageConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['page-config', DOWNLOAD_PAGE_CODE],
    queryFn: ({ signal }) => getDownloadPageConfig(signal),
    staleTime: 10 * 60_000,
  });

export function useDownloadPageConfig() {
  return useQuery(downloadPageConfigQueryOptions());
}
