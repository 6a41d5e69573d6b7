import type { ProductCreateBody, ProductDetail } from '@lm/shared/schemas/admin-catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { productsQueryKey } from './get-products';

/** POST /api/admin/products — created as a draft. */
export function createProduct(input: ProductCreateBody): Promise<ProductDetail> {
  return api.post<ProductDetail>('/api/admin/products', { ...input });
}

export function useCreateProduct(config?: MutationConfig<typeof createProduct>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createProduct,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: productsQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
