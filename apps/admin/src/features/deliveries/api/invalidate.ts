import type { QueryClient } from '@tanstack/react-query';
import { deliveriesQueryKey } from './get-summary';

/** After a retry or discard: queues, dead letters, lead lists and details, people (lead counts). */
export function invalidateLeadViews(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: deliveriesQueryKey });
  void queryClient.invalidateQueries({ queryKey: ['admin', 'leads'] });
  void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] });
}
