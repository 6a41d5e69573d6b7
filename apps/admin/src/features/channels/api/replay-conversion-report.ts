import type { ConversionReportItem } from '@lm/shared/schemas/conversion-reports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { conversionReportsQueryKey } from './get-conversion-reports';

/** POST /api/admin/conversion-reports/:id/replay — a dead report back to the queue (attempts from zero, due now). */
export function replayConversionReport(input: {
  id: number;
  channelId: number;
}): Promise<ConversionReportItem> {
  return api.post<ConversionReportItem>(
    `/api/admin/conversion-reports/${encodeURIComponent(input.id)}/replay`,
  );
}

export function useReplayConversionReport(config?: MutationConfig<typeof replayConversionReport>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: replayConversionReport,
    onSuccess: (data, input, ...rest) => {
      void queryClient.invalidateQueries({ queryKey: conversionReportsQueryKey(input.channelId) });
      config?.onSuccess?.(data, input, ...rest);
    },
  });
}
