import type { ProductDetail, ProductStatusValue } from '@lm/shared/schemas/admin-catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { productsQueryKey } from './get-products';

/**
 * PUT /api/admin/products/:id/status. A refused publish answers 400 with the reasons in Chinese
 * (`msg`, and `data.problems`); the caller shows them (silent: no toast).
 */
export function setProductStatus(input: { id: number; status: ProductStatusValue }): Promise<ProductDetail> {
  return api.put<ProductDetail>(
    `/api/admin/products/${encodeURIComponent(input.id)}/status`,
    { status: input.status },
    { silent: true },
  );
}

export function useSetProductStatus(config?: MutationConfig<typeof setProductStatus>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: setProductStatus,
    onSuccess: (data, ...rest) => {
      queryClient.setQueryData([...productsQueryKey, 'detail', data.id], data);
      void queryClient.invalidateQueries({ queryKey: [...productsQueryKey, 'list'] });
      config?.onSuccess?.(data, ...rest);
    },
  });
}
