import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input, Steps, Toast } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { verifyIdentityName } from '@/app/common/api';
import formStyles from '@/app/common/forms.module.css';
import { ID_CARD_RULES, normalizeIdCard, REAL_NAME_RULES } from '@/app/common/identity-rules';
import { useDelayedNavigate } from '@/app/common/use-delayed-navigate';
import { PageHeader } from '@/components/page-header';
import styles from './credit-process.module.css';

const MAX_FILE_BYTES = 10 * 1024 * 1024;
const CREDIT_STEPS = ['身份认证', '人脸识别', '完善资料', '借款申请'] as const;

interface IdentityValues {
  realName?: string;
  identity?: string;
}

/** Our own face-frame drawing shown until a selfie is taken. */
function FaceFrame() {
  const line = {
    fill: 'none',
    stroke: 'var(--app-primary)',
    strokeWidth: 3,
    strokeLinecap: 'round',
  } as const;
  return (
    <svg viewBox="0 0 120 120" className={styles.faceArt} aria-hidden="true" focusable="false">
      <path
        d="M14 34V20a6 6 0 0 1 6-6h14M86 14h14a6 6 0 0 1 6 6v14M106 86v14a6 6 0 0 1-6 6H86M34 106H20a6 6 0 0 1-6-6V86"
        style={line}
      />
      <ellipse
        cx="60"
        cy="56"
        rx="24"
        ry="30"
        fill="var(--app-primary-light)"
        style={{ ...line, strokeWidth: 2 }}
      />
      <path d="M50 52h.01M70 52h.01M52 68c5 4 11 4 16 0" style={line} />
    </svg>
  );
}

/** `/credit-process/identity-verification`: name + ID number, then a selfie for face verification. */
export function IdentityVerificationRoute() {
  const [form] = Form.useForm<IdentityValues>();
  const [selfie, setSelfie] = useState<{ file: File; url: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const verify = useMutation({ mutationFn: verifyIdentityName });
  const go = useDelayedNavigate();

  useEffect(() => () => (selfie ? URL.revokeObjectURL(selfie.url) : undefined), [selfie]);

  const onFile = (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      Toast.show('图片大小不能超过10MB');
      return;
    }
    setSelfie({ file, url: URL.createObjectURL(file) });
  };

  const submit = (values: IdentityValues) => {
    if (!selfie) {
      Toast.show('请先拍摄人脸照片');
      return;
    }
    verify.mutate(
      { realName: values.realName!.trim(), identity: values.identity!.trim().toUpperCase() },
      { onSuccess: () => go('/credit-process/face-verification-loading', { replace: true }) },
    );
  };

  return (
    <main className={formStyles.page}>
      <PageHeader title="身份认证" />
      <Steps current={0} className={formStyles.steps}>
        {CREDIT_STEPS.map((s) => (
          <Steps.Step key={s} title={s} />
        ))}
      </Steps>
      <Form
        form={form}
        layout="horizontal"
        mode="card"
        requiredMarkStyle="none"
        onFinish={submit}
        className={formStyles.form}
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
              开始认证
            </Button>
            <p className={formStyles.safe}>
              认证即表示同意<Link to="/info-audit-agreement">《信息审核授权书》</Link>
              <Link to="/audit-agreement-privacy">《审核隐私协议》</Link>
            </p>
          </div>
        }
      >
        <Form.Header>身份信息</Form.Header>
        <Form.Item name="realName" label="姓名" rules={REAL_NAME_RULES}>
          <Input placeholder="请输入身份证上的姓名" maxLength={20} clearable />
        </Form.Item>
        <Form.Item name="identity" label="身份证号" normalize={normalizeIdCard} rules={ID_CARD_RULES}>
          <Input placeholder="请输入18位身份证号" maxLength={18} clearable />
        </Form.Item>
        <Form.Header>人脸照片</Form.Header>
        <Form.Item>
          <div className={styles.selfie}>
            {selfie ? (
              <img src={selfie.url} alt="已拍摄的人脸照片" className={styles.selfieImage} />
            ) : (
              <FaceFrame />
            )}
            <input
              ref={fileInput}
              type="file"
              accept="image/*"
              capture="user"
              hidden
              onChange={(e) => {
                onFile(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            <Button color="primary" fill="outline" shape="rounded" onClick={() => fileInput.current?.click()}>
              {selfie ? '重新拍摄' : '拍摄人脸照片'}
            </Button>
            <ul className={styles.tips}>
              <li>请本人正对屏幕，保持光线充足</li>
              <li>请勿佩戴帽子、口罩或墨镜</li>
            </ul>
          </div>
        </Form.Item>
      </Form>
    </main>
  );
}
