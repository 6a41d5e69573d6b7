import { useMutation } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { RequireLogin } from '@/app/flow/require-login';
import { PageHeader } from '@/components/page-header';
import { verifyIdentityName } from '@/features/application-form/api/verify-identity-name';
import { IdentityFields } from '@/features/application-form/components/identity-fields';
import { normalizeIdCard } from '@/features/application-form/identity-rules';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';
import { toast } from '@/lib/toast';
import formStyles from '@/styles/forms.module.css';
import { tempSave } from './api/temp-save';
import styles from './apply.module.css';
import { ApplySteps } from './apply-steps';

interface Values {
  realName?: string;
  identity?: string;
}

/**
 * Name + ID number, checked with the shared validators, then POST /api/user/info/identityNameVerify
 * (its note says what was really checked); a mismatch stops here, otherwise both go into the form
 * draft (POST /api/user/info/tempSave) for the application.
 */
function IdentityForm() {
  const [form] = Form.useForm<Values>();
  const [note, setNote] = useState<string | null>(null);
  const go = useDelayedNavigate();
  const submit = useMutation({
    mutationFn: async (v: { realName: string; identity: string }) => {
      const result = await verifyIdentityName(v);
      setNote(result.note);
      if (result.verified === false) return result;
      await tempSave(v);
      return result;
    },
  });
  return (
    <Form
      form={form}
      layout="horizontal"
      mode="card"
      requiredMarkStyle="none"
      className={formStyles.form}
      onFinish={(v: Values) =>
        submit.mutate(
          { realName: v.realName!.trim(), identity: normalizeIdCard(v.identity!) },
          {
            onSuccess: (result) => {
              if (result.verified === false) {
                toast.show({ content: '姓名与身份证号不一致，请核对后重试', duration: 3000 });
                return;
              }
              go('/apply_auth_photo');
            },
          },
        )
      }
      footer={
        <div className={formStyles.footer}>
          {note && (
            <p className={submit.data?.verified === false ? `${styles.ocr} ${styles.ocrWarn}` : styles.ocr}>
              {note}
            </p>
          )}
          <Button block type="submit" color="primary" shape="rounded" size="large" loading={submit.isPending}>
            下一步
          </Button>
          <p className={formStyles.safe}>
            提交即表示同意<Link to="/info-audit-agreement">《信息审核授权书》</Link>
          </p>
        </div>
      }
    >
      <Form.Header>请填写本人身份信息</Form.Header>
      <IdentityFields />
    </Form>
  );
}

/** `/apply_auth_form`: name + ID number (identityNameVerify, then the draft). */
export function ApplyAuthFormRoute() {
  return (
    <main className={styles.page}>
      <PageHeader title="身份认证" fallback="/apply_limit" />
      <ApplySteps current={1} />
      <RequireLogin>
        <IdentityForm />
      </RequireLogin>
    </main>
  );
}
