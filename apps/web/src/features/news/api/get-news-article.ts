import type { NewsDetailData } from '@lm/shared/schemas/content';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type { NewsDetailData };

/** GET /api/news/:id — one article (id or slug) with related articles; the server counts the view. */
export function getNewsArticle(id: string, signal?: AbortSignal): Promise<NewsDetailData> {
  return api.get<NewsDetailData>(`/api/news/${encodeURIComponent(id)}`, {
    silent: true,
    skipAuth: true,
    ...(signal ? { signal } : {}),
  });
}

export const newsArticleQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['news-article', id],
    queryFn: ({ signal }) => getNewsArticle(id, signal),
    staleTime: 5 * 60_000,
  });

export function useNewsArticle(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...newsArticleQueryOptions(id), enabled: options.enabled ?? true });
}
