import type { TempLinkData, TempLinkType } from '@lm/shared/schemas/site';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

/** GET /api/common/temp/link — a signed link (10 minutes) to share, carrying the channel. */
export function getTempLink(type: TempLinkType): Promise<TempLinkData> {
  return api.get<TempLinkData>('/api/common/temp/link', { params: { type }, cancelPrevious: false });
}

export function useTempLink(config?: MutationConfig<typeof getTempLink>) {
  return useMutation({ ...config, mutationFn: getTempLink });
}
