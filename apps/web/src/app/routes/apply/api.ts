/**
 * Calls of the apply section (spec §7 "User info"), route-local: shapes tempSaveData, applyStatusData
 * and statusResultData of @lm/shared/schemas/application (types only here).
 */
import type { ApplicationDraft, TempSaveData } from '@lm/shared/schemas/application';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { APPLY_LIMIT_OPTIONS } from '@/config/form-options';
import { api } from '@/lib/api-client';
import { isLoggedIn } from '@/lib/session';

/** POST /api/user/info/tempSave — part of the form draft (merged on the server). */
export function tempSave(patch: ApplicationDraft): Promise<TempSaveData> {
  return api.post<TempSaveData, ApplicationDraft>('/api/user/info/tempSave', patch, {
    cancelPrevious: false,
  });
}

export function useTempSave() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: tempSave,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['apply', 'draft'] }),
  });
}

export interface StatusResult {
  /** 0 unsubmitted, 1 submitted-unauthorized, 10 authorized (spec §3). */
  submitStatus: 0 | 1 | 10;
  userInfoStatus: number;
  coverStatus: number;
}

/** GET /api/user/info/status/result */
export function getStatusResult(signal?: AbortSignal): Promise<StatusResult> {
  return api.get<StatusResult>('/api/user/info/status/result', signal ? { signal } : undefined);
}

export const statusResultQueryOptions = () =>
  queryOptions({
    queryKey: ['apply', 'status-result'],
    queryFn: ({ signal }) => getStatusResult(signal),
    staleTime: 0,
  });

export function useStatusResult() {
  return useQuery({ ...statusResultQueryOptions(), enabled: isLoggedIn() });
}

export interface ApplyDetail {
  submitStatus: 0 | 1 | 10;
  applyLimit: number | null;
  workCity: string | null;
}

/** GET /api/user/info/detail — apply status with the amount chosen (silent: a page state). */
export function getApplyDetail(signal?: AbortSignal): Promise<ApplyDetail> {
  return api.get<ApplyDetail>('/api/user/info/detail', { silent: true, ...(signal ? { signal } : {}) });
}

export const applyDetailQueryOptions = () =>
  queryOptions({
    queryKey: ['apply', 'draft', 'detail'],
    queryFn: ({ signal }) => getApplyDetail(signal),
    staleTime: 0,
  });

export function useApplyDetail() {
  return useQuery({ ...applyDetailQueryOptions(), enabled: isLoggedIn() });
}

/** A sample amount per applyLimit option, for the monthly-payment estimate. */
const SAMPLE_YUAN: Record<number, number> = { 1: 5_000, 2: 30_000, 3: 80_000, 4: 150_000 };

/** Amount options of the form draft (applyLimit codes of config/form-options.ts) with a sample amount. */
export const LIMIT_CHOICES = APPLY_LIMIT_OPTIONS.map((o) => ({
  ...o,
  sampleYuan: SAMPLE_YUAN[o.value] ?? 10_000,
}));

export function limitLabel(value: number | null | undefined): string | null {
  return LIMIT_CHOICES.find((c) => c.value === value)?.label ?? null;
}
