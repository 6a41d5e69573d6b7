import type { SpendFileBody, SpendPreviewData } from '@lm/shared/schemas/spend-imports';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

/**
 * POST /api/admin/spend-imports/preview (admin, operator) — the file judged row by row; nothing is written. A file
 * that cannot be read answers 400 in words; the page shows it (silent).
 */
export function previewSpendImport(body: SpendFileBody): Promise<SpendPreviewData> {
  return api.post<SpendPreviewData>('/api/admin/spend-imports/preview', { ...body }, { silent: true });
}

export function usePreviewSpendImport(config?: MutationConfig<typeof previewSpendImport>) {
  return useMutation({ ...config, mutationFn: previewSpendImport });
}
