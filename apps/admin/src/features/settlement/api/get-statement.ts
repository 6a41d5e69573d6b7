import type { PartyType } from '@lm/shared/ledger';
import type { StatementDetailData } from '@lm/shared/schemas/settlement';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settlementQueryKey } from './get-statements';

/** GET /api/admin/settlement/statements/:partyType/:code?month= — one statement with its entries. */
export function getStatement(
  type: PartyType,
  code: string,
  month: string,
  signal?: AbortSignal,
): Promise<StatementDetailData> {
  return api.get<StatementDetailData>(
    `/api/admin/settlement/statements/${encodeURIComponent(type)}/${encodeURIComponent(code)}`,
    { params: { month }, signal },
  );
}

export const statementQueryKey = (type: PartyType, code: string, month: string) =>
  [...settlementQueryKey, 'statement', type, code, month] as const;

export function useStatement(type: PartyType, code: string, month: string) {
  return useQuery(
    queryOptions({
      queryKey: statementQueryKey(type, code, month),
      queryFn: ({ signal }) => getStatement(type, code, month, signal),
    }),
  );
}
