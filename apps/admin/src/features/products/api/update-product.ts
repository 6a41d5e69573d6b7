import type { ProductBody, ProductDetail } from '@lm/shared/schemas/admin-catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { productsQueryKey } from './get-products';

/** PUT /api/admin/products/:id — every setting (a published product must stay publishable). */
export function updateProduct(input: { id: number; body: ProductBody }): Promise<ProductDetail> {
  return api.put<ProductDetail>(`/api/admin/products/${encodeURIComponent(input.id)}`, { ...input.body });
}

export function useUpdateProduct(config?: MutationConfig<typeof updateProduct>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateProduct,
    onSuccess: (data, ...rest) => {
      queryClient.setQueryData([...productsQueryKey, 'detail', data.id], data);
      void queryClient.invalidateQueries({ queryKey: [...productsQueryKey, 'list'] });
      config?.onSuccess?.(data, ...rest);
    },
  });
}
