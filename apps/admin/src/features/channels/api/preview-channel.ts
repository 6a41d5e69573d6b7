import type { ChannelDraftInput } from '@lm/shared/schemas/admin-channels';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface PreviewToken {
  token: string;
  expiresAt: string;
}

/**
 * POST /api/admin/channels/preview — a 30-minute token for the H5 to show the unsaved draft
 * (`/?previewToken=…`). Silent: the preview pane shows its own error.
 */
export function previewChannel(
  draft: ChannelDraftInput & { adChannelCode?: string; previewSkin?: number },
  signal?: AbortSignal,
): Promise<PreviewToken> {
  return api.post<PreviewToken>('/api/admin/channels/preview', { ...draft }, { silent: true, signal });
}

export type PreviewDraft = Parameters<typeof previewChannel>[0];

/** A token for `draft` (null: no preview yet). Each new draft asks again; tokens are refreshed before expiry. */
export function usePreviewToken(draft: PreviewDraft | null) {
  return useQuery({
    queryKey: ['admin', 'channels', 'preview', draft],
    queryFn: ({ signal }) => previewChannel(draft!, signal),
    enabled: draft !== null,
    placeholderData: keepPreviousData,
    staleTime: 20 * 60_000,
    refetchInterval: 20 * 60_000,
  });
}
