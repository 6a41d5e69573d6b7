import type { ApplicationDraft } from '@lm/shared/schemas/application';
import { api } from '@/lib/api-client';

/** The stored draft as GET /api/user/info/form/show answers it: realName and identity masked. */
export type ShownDraft = ApplicationDraft;

/** GET /api/user/info/form/show — the stored draft (realName and identity masked), or {}. */
export function fetchShownDraft(signal?: AbortSignal): Promise<ShownDraft> {
  return api.get<ShownDraft>('/api/user/info/form/show', { silent: true, ...(signal ? { signal } : {}) });
}
