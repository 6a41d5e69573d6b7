import { useSearchParams } from 'react-router';
import { FormBanner, FormPage } from '@/app/common/form-page';
import styles from '@/app/common/forms.module.css';

/** `/credit-process/credit-application-form` (optional `coverStatus=1`: earlier answers may be updated). */
export function CreditApplicationFormRoute() {
  const [query] = useSearchParams();
  const cover = query.get('coverStatus') === '1';
  return (
    <FormPage
      title="借款申请"
      next="/fill-information/waiting"
      banner={<FormBanner title="填写借款申请" text="资料审核已完成，填写借款需求即可匹配机构" />}
      intro={
        cover ? (
          <p className={styles.intro}>您之前提交过申请资料，可以修改后重新提交，以最新提交的资料为准。</p>
        ) : undefined
      }
    />
  );
}
