import type { ApplicationSaveBody } from '@lm/shared/schemas/application';
import type { MatchResultData } from '@lm/shared/schemas/matching';
import { api } from '@/lib/api-client';

/**
 * The body as the form builds it: the fields of applicationSaveBody, an unanswered one left out
 * (the server names what is missing).
 */
export type SaveApplicationInput = Partial<ApplicationSaveBody>;

/**
 * POST /api/user/info/save — the whole form draft (`autoForm: true` when the answers came from the
 * automatic form and the person confirmed them); answers the match result.
 */
export function saveApplication(draft: SaveApplicationInput): Promise<MatchResultData | null> {
  return api.post<MatchResultData | null, SaveApplicationInput>('/api/user/info/save', draft);
}
