import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { FormBanner, FormPage, locatedWorkCity } from '@/app/flow/form-page';
import { RequireLogin } from '@/app/flow/require-login';
import { cityValueOf } from '@/components/city-picker/city-picker';
import { PageLoading } from '@/components/page-loading';
import { fetchShownDraft } from '@/features/application-form/api/get-shown-draft';
import { useVerifiedIdentity } from '@/features/application-form/api/get-verified-identity';
import { prefillFromDraft } from '@/features/application-form/cover-prefill';
import {
  type WorkCitySuggestion,
  workCityFromCreditInfo,
} from '@/features/application-form/located-work-city';
import { fetchBaseDetail } from '@/features/credit-info/api/get-base-detail';
import { CreditSteps } from '@/features/credit-info/components/credit-steps';
import styles from '@/styles/forms.module.css';

// The credit process's last step (one stepper with identity verification and the credit information).
const BANNER = (
  <>
    <CreditSteps current="apply" className={styles.steps} />
    <FormBanner title="填写借款申请" text="资料审核已完成，填写借款需求即可匹配机构" />
  </>
);
const NEXT = '/fill-information/waiting';

/**
 * The work city the person has just told us (issue 44.18): the employer's city of the credit
 * information (GET /api/app/userInfo/baseDetail), else the residence; else, as on every form, the
 * city by the IP.
 */
async function creditWorkCity(): Promise<WorkCitySuggestion | null> {
  const info = await fetchBaseDetail().catch(() => null);
  return workCityFromCreditInfo(info) ?? locatedWorkCity();
}

/** The earlier application's answers (coverStatus=1); without one (or if it fails to load) a blank form. */
function CoverForm() {
  const identity = useVerifiedIdentity();
  const draft = useQuery({
    queryKey: ['application', 'form-show'],
    queryFn: async ({ signal }) => {
      const shown = await fetchShownDraft(signal);
      return prefillFromDraft(shown, await cityValueOf(shown.workCityCode));
    },
    staleTime: 0,
  });
  if (draft.isPending) return <PageLoading />;
  return (
    <FormPage
      title="借款申请"
      next={NEXT}
      banner={BANNER}
      prefill={draft.data}
      suggestWorkCity={creditWorkCity}
      intro={
        <p className={styles.intro}>
          您之前提交过申请资料，已为您填入上次的选择，可以修改后重新提交，以最新提交的资料为准。
          {identity.status === 'verified'
            ? '姓名和身份证号为您已实名认证的信息。'
            : '为保护您的隐私，姓名和身份证号请重新填写。'}
        </p>
      }
    />
  );
}

/**
 * `/credit-process/credit-application-form`: the application form after the credit information (a
 * verified identity shown read-only, issue 16.1). With
 * `coverStatus=1` (spec §2, §4: the earlier application may be covered) it starts from the earlier
 * draft's answers.
 */
export function CreditApplicationFormRoute() {
  const [query] = useSearchParams();
  if (query.get('coverStatus') === '1') {
    return (
      <RequireLogin>
        <CoverForm />
      </RequireLogin>
    );
  }
  return <FormPage title="借款申请" next={NEXT} banner={BANNER} suggestWorkCity={creditWorkCity} />;
}
