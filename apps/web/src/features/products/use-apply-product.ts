import type { ProductItem } from '@lm/shared/schemas/product';
import { useState } from 'react';
import { loadDialog } from '@/lib/dialog';
import { isLoggedIn } from '@/lib/session';
import { useApplyProductMutation } from './api/apply-product';
import { reportJumpSuccess } from './api/report-jump-success';

export interface ApplyHandlers {
  /** Not logged in: where the login prompt leads. */
  onLogin(): void;
  /** The partner page our server answered (checked against the lender's hosts) — open it. */
  onPartnerPage(url: string, product: ProductItem): void;
  /** No partner page: the product takes the lead through the application form. */
  onFormFlow(product: ProductItem): void;
}

/**
 * 去申请: a logged-out person is asked to log in first; otherwise POST /api/product/apply with the
 * card's placement, then the partner page (through /inline-page) or the application form.
 */
export function useApplyProduct(handlers: ApplyHandlers) {
  const mutation = useApplyProductMutation();
  const [applyingId, setApplyingId] = useState<string | null>(null);

  const apply = (product: ProductItem, placement: number) => {
    if (!isLoggedIn()) {
      void loadDialog().then((Dialog) =>
        Dialog.confirm({
          title: '请先登录',
          content: '登录后即可申请该产品，并查看您的申请记录',
          confirmText: '去登录',
          cancelText: '再看看',
          onConfirm: handlers.onLogin,
        }),
      );
      return;
    }
    if (applyingId) return;
    setApplyingId(product.id);
    mutation.mutate(
      { productId: product.id, entranceType: placement },
      {
        onSuccess: (data) => {
          if (data.thirdpartyTargetUrl) {
            void reportJumpSuccess(product.id, placement);
            handlers.onPartnerPage(data.thirdpartyTargetUrl, product);
          } else {
            handlers.onFormFlow(product);
          }
        },
        // Failures were shown by the API client (sold out, outside hours, not allowed …).
        onSettled: () => setApplyingId(null),
      },
    );
  };

  return { apply, applyingId };
}
