import { FormBanner, FormPage } from '@/app/flow/form-page';

/** `/fill-information-three` (formprocess3): the form in three steps. */
export function FillInformationThreeRoute() {
  return (
    <FormPage
      title="完善资料"
      layout="stepped"
      next="/fill-information-three/authorize-page-three"
      banner={<FormBanner title="三步完成申请" text="借款需求 · 资产信用 · 身份信息" />}
    />
  );
}
