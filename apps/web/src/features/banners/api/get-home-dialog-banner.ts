import type { BannerData } from '@lm/shared/schemas/site';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/banner/homeDialogBanner — the home dialog banner for the channel, or null. Silent. */
export function getHomeDialogBanner(adChannelCode: string, signal?: AbortSignal): Promise<BannerData | null> {
  return api.get<BannerData | null>('/api/banner/homeDialogBanner', {
    params: { adChannelCode },
    silent: true,
    skipAuth: true,
    ...(signal ? { signal } : {}),
  });
}

export const homeDialogBannerQueryOptions = (adChannelCode: string) =>
  queryOptions({
    queryKey: ['banners', 'home-dialog', adChannelCode],
    queryFn: ({ signal }) => getHomeDialogBanner(adChannelCode, signal),
    staleTime: 5 * 60_000,
  });

export function useHomeDialogBanner(adChannelCode: string, enabled = true) {
  return useQuery({ ...homeDialogBannerQueryOptions(adChannelCode), enabled });
}
