import type { ApplicationDraft, TempSaveData } from '@lm/shared/schemas/application';
import { api } from '@/lib/api-client';

/**
 * POST /api/user/info/tempSave — the answers typed so far, merged into the stored draft (issue 16.3).
 * Silent: a failed autosave (offline) is retried with the next change, the device keeps a copy
 * meanwhile; an expired session still logs out (and the login comes back to the form).
 */
export function tempSaveDraft(patch: ApplicationDraft, keepalive = false): Promise<TempSaveData> {
  return api.post<TempSaveData, ApplicationDraft>('/api/user/info/tempSave', patch, {
    silent: true,
    keepalive,
  });
}
