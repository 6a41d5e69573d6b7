import { FormBanner, FormPage, FormPageShell } from '@/app/flow/form-page';

const TITLE = '完善资料';

function Banner() {
  return (
    <FormBanner
      badge="仅需2分钟"
      title={
        <>
          最高可借<strong>20</strong>万
        </>
      }
      text="完善资料后为您智能匹配合适的持牌机构，年化利率7.2%-24%，以实际审批为准"
    />
  );
}

/** `/fill-information`: the default flow's application form. */
export function FillInformationRoute() {
  return <FormPage title={TITLE} next="/fill-information/waiting" banner={<Banner />} />;
}

/** The page as the server renders it before the app runs (src/prerender.tsx `renderForm`, ADR 065). */
export function FillInformationShell() {
  return <FormPageShell title={TITLE} banner={<Banner />} />;
}
