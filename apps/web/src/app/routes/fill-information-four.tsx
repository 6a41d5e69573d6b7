import { FormBanner, FormPage } from '@/app/flow/form-page';

/** `/fill-information-four` (formprocess4): form, re-match and authorisation on one route (spec §2). */
export function FillInformationFourRoute() {
  return (
    <FormPage
      title="完善资料"
      next="authorize-here"
      banner={<FormBanner title="填写资料，一键匹配" text="资料越完整，匹配越精准；信息全程加密保护" />}
    />
  );
}
