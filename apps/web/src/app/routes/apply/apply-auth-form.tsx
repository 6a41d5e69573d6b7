import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd-mobile';
import { Link } from 'react-router';
import { verifyIdentityName } from '@/app/common/api';
import formStyles from '@/app/common/forms.module.css';
import { ID_CARD_RULES, normalizeIdCard, REAL_NAME_RULES } from '@/app/common/identity-rules';
import { useDelayedNavigate } from '@/app/common/use-delayed-navigate';
import { PageHeader } from '@/components/page-header';
import styles from './apply.module.css';
import { ApplySteps } from './apply-steps';

interface Values {
  realName?: string;
  identity?: string;
}

/** `/apply_auth_form`: name + ID number (POST /api/user/info/identityNameVerify). */
export function ApplyAuthFormRoute() {
  const [form] = Form.useForm<Values>();
  const verify = useMutation({ mutationFn: verifyIdentityName });
  const go = useDelayedNavigate();
  return (
    <main className={styles.page}>
      <PageHeader title="身份认证" fallback="/apply_limit" />
      <ApplySteps current={1} />
      <Form
        form={form}
        layout="horizontal"
        mode="card"
        requiredMarkStyle="none"
        className={formStyles.form}
        onFinish={(v: Values) =>
          verify.mutate(
            { realName: v.realName!.trim(), identity: v.identity!.toUpperCase() },
            { onSuccess: () => go('/apply_auth_photo') },
          )
        }
        footer={
          <div className={formStyles.footer}>
            <Button
              block
              type="submit"
              color="primary"
              shape="rounded"
              size="large"
              loading={verify.isPending}
            >
              下一步
            </Button>
            <p className={formStyles.safe}>
              提交即表示同意<Link to="/info-audit-agreement">《信息审核授权书》</Link>
            </p>
          </div>
        }
      >
        <Form.Header>请填写本人身份信息</Form.Header>
        <Form.Item name="realName" label="姓名" rules={REAL_NAME_RULES}>
          <Input placeholder="请输入身份证上的姓名" maxLength={20} clearable />
        </Form.Item>
        <Form.Item name="identity" label="身份证号" normalize={normalizeIdCard} rules={ID_CARD_RULES}>
          <Input placeholder="请输入18位身份证号" maxLength={18} clearable />
        </Form.Item>
      </Form>
    </main>
  );
}
