import { FormBanner, FormPage } from '@/app/flow/form-page';

/**
 * `/new-fill-information` (channels with the fenqile flag): the form, and — after saving or when a
 * re-match link brings a result — the matched lenders to authorise on the same route (spec §2).
 */
export function NewFillInformationRoute() {
  return (
    <FormPage
      title="申请额度"
      next="authorize-here"
      submitText="立即获取额度"
      banner={
        <FormBanner
          badge="新用户专享"
          title={
            <>
              测一测，最高<strong>20</strong>万
            </>
          }
          text="填写资料即可查看可申请的机构，年化利率7.2%-24%，以实际审批为准"
        />
      }
    />
  );
}
