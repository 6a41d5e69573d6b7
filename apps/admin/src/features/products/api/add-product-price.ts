import type { ProductPriceBody, ProductPricesData } from '@lm/shared/schemas/product-prices';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { productPricesQueryKey } from './get-product-prices';

/**
 * POST /api/admin/products/:id/prices (admin) — a price from a day on; answers the product's prices as the GET
 * does. A refusal (a past day, a second price of a model on one day) answers 400 in words; the card shows it
 * (silent: no toast).
 */
export function addProductPrice(input: { id: number; body: ProductPriceBody }): Promise<ProductPricesData> {
  return api.post<ProductPricesData>(
    `/api/admin/products/${encodeURIComponent(input.id)}/prices`,
    { ...input.body },
    { silent: true },
  );
}

export function useAddProductPrice(config?: MutationConfig<typeof addProductPrice>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: addProductPrice,
    onSuccess: (data, ...rest) => {
      queryClient.setQueryData(productPricesQueryKey(data.productId), data);
      config?.onSuccess?.(data, ...rest);
    },
  });
}
