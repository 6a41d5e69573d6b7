import type { ProductItem } from '@lm/shared/schemas/product';
import { useLocation, useNavigate } from 'react-router';
import { quotaPath } from '@/app/flow/require-login';
import { nextStepOfLiveSession } from '@/app/sign-in/live-session';
import { vouchPartnerUrl } from '@/features/consent/consent-result';
import { followDecision } from '@/features/flow/navigate';
import { useApplyProduct } from '@/features/products/use-apply-product';
import { reportClick } from '@/features/reporting/client';
import { useChannelStore } from '@/lib/channel/store';
import { isLoggedIn } from '@/lib/session';
import { toast } from '@/lib/toast';

/**
 * 去申请 on the product pages (/advertising, /borrow-money, /you-xin-detail): the click report, the
 * login prompt, POST /api/product/apply, then the partner page through /inline-page (the URL our
 * server answered is vouched for, as consent answers are) or the channel's application form.
 */
export function useProductActions() {
  const navigate = useNavigate();
  const location = useLocation();
  const code = useChannelStore((s) => s.adChannelCode);
  const formRoute = useChannelStore((s) => s.config.flowRoutes.form);
  /**
   * 完善资料 / 立即申请 and a product's form flow: a logged-in person goes on at their next step (issue
   * 16.5) — their form (with what they typed), or, already submitted, the re-match and its lenders,
   * never an empty form to fill again; a visitor goes to the form, which asks for the login first.
   */
  const goToForm = () => {
    if (!isLoggedIn()) {
      navigate(formRoute);
      return;
    }
    void nextStepOfLiveSession().then(
      (decision) => followDecision({ ...decision, delayMs: 0 }),
      () => navigate(formRoute),
    );
  };
  const { apply, applyingId } = useApplyProduct({
    onLogin: () => navigate(quotaPath(code, `${location.pathname}${location.search}`)),
    onPartnerPage: (url, product) => {
      vouchPartnerUrl(url);
      const name = product.yqlWholeProcessBumpVO?.partnerProductName || product.productName;
      navigate(`/inline-page?url=${encodeURIComponent(url)}&productName=${encodeURIComponent(name)}`);
    },
    onFormFlow: (product) => {
      toast.show(`${product.productName}需完善资料后由机构审核`);
      goToForm();
    },
  });
  const onApply = (product: ProductItem, placement: number) => {
    void reportClick('product_apply', { productId: product.id, placement });
    apply(product, placement);
  };
  return { onApply, applyingId, goToForm };
}
