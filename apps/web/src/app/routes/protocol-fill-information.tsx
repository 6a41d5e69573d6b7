import { Link } from 'react-router';
import { FormBanner, FormPage } from '@/app/flow/form-page';
import styles from '@/styles/forms.module.css';

/** `/protocol-fill-information`: the form variant that leads with the authorisation terms. */
export function ProtocolFillInformationRoute() {
  return (
    <FormPage
      title="完善资料"
      next="/fill-information/waiting"
      submitText="同意协议并提交"
      banner={<FormBanner title="授权并完善资料" text="请先阅读授权条款，再填写申请信息" />}
      intro={
        <p className={styles.intro}>
          提交即表示您同意本平台按照<Link to="/information-agreement">《个人信息授权书》</Link>
          处理您的信息。向任何机构提供您的信息前，我们都会在授权页逐一征得您的同意，您可以不同意向任何机构提供。
        </p>
      }
    />
  );
}
