import type { NewsItem, NewsListData } from '@lm/shared/schemas/content';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type { NewsItem, NewsListData };

export const NEWS_PAGE_SIZE = 10;

/** GET /api/news?page&pageSize&category — published articles, newest first. */
export function getNews(
  input: { page: number; pageSize?: number; category?: string | null },
  signal?: AbortSignal,
): Promise<NewsListData> {
  return api.get<NewsListData>('/api/news', {
    params: { page: input.page, pageSize: input.pageSize ?? NEWS_PAGE_SIZE, category: input.category ?? '' },
    silent: true,
    skipAuth: true,
    ...(signal ? { signal } : {}),
  });
}

/** The page after `last`, or undefined when every article has been loaded. */
export function nextNewsPage(
  last: Pick<NewsListData, 'page' | 'pageSize' | 'total' | 'list'>,
): number | undefined {
  if (last.list.length === 0) return undefined;
  return last.page * last.pageSize < last.total ? last.page + 1 : undefined;
}

export const newsListQueryOptions = (category: string | null) =>
  infiniteQueryOptions({
    queryKey: ['news', category ?? 'all'],
    queryFn: ({ pageParam, signal }) => getNews({ page: pageParam, category }, signal),
    initialPageParam: 1,
    getNextPageParam: nextNewsPage,
    staleTime: 60_000,
  });

export function useNewsList(category: string | null) {
  return useInfiniteQuery(newsListQueryOptions(category));
}
