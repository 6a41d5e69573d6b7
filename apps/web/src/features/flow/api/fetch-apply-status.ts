import { ApiError, api } from '@/lib/api-client';
import type { ApplyStatusFacts } from '../decide';

/** GET /api/user/info/detail (errors silent): the envelope code with the data. */
export async function fetchApplyStatus(): Promise<ApplyStatusFacts> {
  try {
    const data = await api.get<ApplyStatusFacts['data']>('/api/user/info/detail', { silent: true });
    return { code: 200, data: data ?? null };
  } catch (error) {
    return { code: error instanceof ApiError ? error.code : 0, data: null };
  }
}
