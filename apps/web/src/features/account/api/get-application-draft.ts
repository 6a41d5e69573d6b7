import type { ApplicationDraft } from '@lm/shared/schemas/application';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/user/info/form/show — the stored application draft; realName and identity come masked. */
export function getApplicationDraft(signal?: AbortSignal): Promise<ApplicationDraft> {
  return api.get<ApplicationDraft>('/api/user/info/form/show', { signal, silent: true });
}

export const applicationDraftQueryOptions = () =>
  queryOptions({
    queryKey: ['account', 'application-draft'],
    queryFn: ({ signal }) => getApplicationDraft(signal),
  });

export function useApplicationDraft() {
  return useQuery(applicationDraftQueryOptions());
}
