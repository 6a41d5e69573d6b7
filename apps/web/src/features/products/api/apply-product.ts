import type { ProductApplyBody } from '@lm/shared/schemas/product';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

/** productApplyBody of @lm/shared, with the product id as the numeric text the lists give. */
type ApplyProductBody = Omit<ProductApplyBody, 'productId'> & { productId: string };

/** The product and the spec §3 ad placement of the card tapped. */
export type ApplyProductInput = Pick<ApplyProductBody, 'productId' | 'entranceType'>;

export interface ApplyProductData {
  /** The partner page to open in /inline-page; null: the product takes leads through the form. */
  thirdpartyTargetUrl: string | null;
  linkType: number;
}

/** POST /api/product/apply (appH5 4: the H5). */
export function applyProduct(input: ApplyProductInput): Promise<ApplyProductData> {
  return api.post<ApplyProductData, ApplyProductBody>(
    '/api/product/apply',
    { ...input, appH5: 4 },
    { cancelPrevious: false },
  );
}

export function useApplyProductMutation(config?: MutationConfig<typeof applyProduct>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: applyProduct,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: ['products', 'today-applied'] });
      await config?.onSuccess?.(...args);
    },
  });
}
