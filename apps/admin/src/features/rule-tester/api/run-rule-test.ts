import type { RuleTesterBody, RuleTesterData } from '@lm/shared/schemas/admin-catalog';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

/** POST /api/admin/rule-tester — the engine on a sample profile (live catalogue and counters; stores nothing). */
export function runRuleTest(input: RuleTesterBody): Promise<RuleTesterData> {
  return api.post<RuleTesterData>('/api/admin/rule-tester', { ...input });
}

export function useRunRuleTest(config?: MutationConfig<typeof runRuleTest>) {
  return useMutation({ ...config, mutationFn: runRuleTest });
}
