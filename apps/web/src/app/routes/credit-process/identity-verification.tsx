import { SPECIAL_ROUTES } from '@lm/shared/channel';
import { maskIdCard, maskName } from '@lm/shared/mask';
import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE_MSG } from '@lm/shared/upload';
import { useMutation } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { RequireLogin } from '@/app/flow/require-login';
import { PageHeader } from '@/components/page-header';
import { PrimaryButton } from '@/components/primary-button';
import { verifyIdentityName } from '@/features/application-form/api/verify-identity-name';
import { IdentityFields } from '@/features/application-form/components/identity-fields';
import { normalizeIdCard } from '@/features/application-form/identity-rules';
import { CreditSteps } from '@/features/credit-info/components/credit-steps';
import { readIdCard } from '@/features/face/api/read-id-card';
import { ID_CARD_MAX_SIDE, normalizePhoto } from '@/features/face/capture';
import {
  type ConfirmedIdentity,
  clearFaceFailure,
  confirmedIdentity,
  readFaceFailure,
  rememberIdentity,
  savePendingFace,
} from '@/features/face/handoff';
import { type OcrFill, readIdentityDraft, saveIdentityDraft } from '@/features/face/identity-draft';
import { SelfieCamera } from '@/features/face/selfie-camera';
import { delayBefore } from '@/features/flow/waiting-pages';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';
import { getStoredUid, getToken } from '@/lib/session';
import { sessionStore } from '@/lib/storage';
import { toast } from '@/lib/toast';
import { uploadFile } from '@/lib/upload';
import formStyles from '@/styles/forms.module.css';
import styles from './credit-process.module.css';

interface IdentityValues {
  realName?: string;
  identity?: string;
}

/** The last failed attempt's reasons, shown on return from the loading page. */
function FailureNotice({ reasons }: { reasons: string[] }) {
  return (
    <section className={styles.failure} role="alert" aria-label="上次认证未通过">
      <h2>上次人脸认证未通过</h2>
      <ul>
        {reasons.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Step 1: name + ID number, validated like the application form; optionally read off a photo of the
 * ID card's front (uploaded to the private `idcard` folder), which only pre-fills the fields for the
 * person to check. identityNameVerify then checks them; its note says what was really checked.
 */
function IdentityStep({
  initial,
  initialOcr,
  onVerified,
}: {
  initial: IdentityValues;
  initialOcr: OcrFill | null;
  onVerified: (value: ConfirmedIdentity) => void;
}) {
  const [form] = Form.useForm<IdentityValues>();
  const [ocr, setOcr] = useState<OcrFill | null>(initialOcr);
  // Kept in this tab as it changes (features/face/identity-draft.ts): a reload finds it.
  const keepDraft = (values: IdentityValues, fill: OcrFill | null) =>
    saveIdentityDraft(sessionStore, getStoredUid(), { ...values, ...(fill ? { ocr: fill } : {}) });
  const [reading, setReading] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const cardInput = useRef<HTMLInputElement>(null);
  const verify = useMutation({ mutationFn: verifyIdentityName });

  const readCard = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > UPLOAD_MAX_BYTES) {
      toast.show(UPLOAD_TOO_LARGE_MSG);
      return;
    }
    setReading(true);
    toast.show({ icon: 'loading', content: '正在识别身份证…', duration: 0, maskClickable: false });
    try {
      const photo = await normalizePhoto(file, ID_CARD_MAX_SIDE);
      const url = await uploadFile(photo, 'idcard', { isPrivate: true });
      const read = await readIdCard(url);
      toast.clear();
      const patch: IdentityValues = {};
      if (read.realName) patch.realName = read.realName;
      if (read.identity) patch.identity = normalizeIdCard(read.identity);
      form.setFieldsValue(patch);
      const fields = Object.keys(patch) as OcrFill['fields'];
      const fill = { fields, note: read.note, valid: read.valid };
      setOcr(fill);
      keepDraft(form.getFieldsValue(), fill);
      setRefusal(null);
      // A number that fails the checksum shows its error at once.
      if (fields.length) form.validateFields(fields).catch(() => undefined);
    } catch {
      // The upload or the call has shown why (its toast replaced the loading one).
    } finally {
      setReading(false);
    }
  };

  const submit = (values: IdentityValues) => {
    const realName = values.realName!.trim();
    const identity = normalizeIdCard(values.identity!);
    verify.mutate(
      { realName, identity },
      {
        onSuccess: (answer) => {
          if (answer.verified === false) {
            setRefusal(answer.note);
            return;
          }
          setRefusal(null);
          onVerified({ realName, identity, note: answer.note, verified: answer.verified });
        },
      },
    );
  };

  return (
    <Form
      form={form}
      initialValues={initial}
      layout="horizontal"
      mode="card"
      requiredMarkStyle="none"
      onFinish={submit}
      onValuesChange={(_, values) => {
        setRefusal(null);
        keepDraft(values, ocr);
      }}
      className={formStyles.form}
      footer={
        <div className={formStyles.footer}>
          {refusal && (
            <p className={styles.refusal} role="alert">
              {refusal}
            </p>
          )}
          <PrimaryButton type="submit" loading={verify.isPending} disabled={reading}>
            {ocr ? '信息无误，下一步' : '下一步'}
          </PrimaryButton>
          <p className={formStyles.safe}>
            认证即表示同意<Link to="/info-audit-agreement">《信息审核授权书》</Link>
            <Link to="/audit-agreement-privacy">《审核隐私协议》</Link>
          </p>
        </div>
      }
    >
      <Form.Header>身份信息</Form.Header>
      <Form.Item>
        <div className={styles.ocr}>
          <div>
            <p className={styles.ocrTitle}>拍摄身份证人像面</p>
            <p className={styles.ocrText}>自动识别姓名和身份证号，识别结果需您逐字核对</p>
          </div>
          <Button
            className={styles.ocrButton}
            size="small"
            color="primary"
            fill="outline"
            shape="rounded"
            loading={reading}
            onClick={() => cardInput.current?.click()}
          >
            {ocr ? '重新拍摄' : '拍摄'}
          </Button>
          <input
            ref={cardInput}
            type="file"
            accept="image/*"
            hidden
            aria-label="身份证人像面照片"
            onChange={(e) => {
              void readCard(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
      </Form.Item>
      <IdentityFields />
      {ocr && (
        <Form.Item>
          <output className={ocr.valid ? styles.ocrNote : `${styles.ocrNote} ${styles.ocrWarn}`}>
            {ocr.fields.length ? '已根据身份证照片填入姓名和身份证号。' : ''}
            {ocr.note}
          </output>
        </Form.Item>
      )}
    </Form>
  );
}

/** Step 2: the confirmed identity (masked, with what was checked) and the selfie. */
function SelfieStep({
  identity,
  onEdit,
  onSubmit,
}: {
  identity: ConfirmedIdentity;
  onEdit: () => void;
  onSubmit: (photo: File) => Promise<void>;
}) {
  return (
    <>
      <section className={styles.card} aria-label="身份信息">
        <div className={styles.summaryHead}>
          <h2>身份信息</h2>
          <Button size="mini" fill="none" color="primary" onClick={onEdit}>
            修改
          </Button>
        </div>
        <dl className={styles.summary}>
          <div>
            <dt>姓名</dt>
            <dd>{maskName(identity.realName)}</dd>
          </div>
          <div>
            <dt>身份证号</dt>
            <dd>{maskIdCard(identity.identity)}</dd>
          </div>
        </dl>
        <p className={styles.checkNote}>{identity.note}</p>
      </section>
      <section className={styles.card} aria-label="人脸照片">
        <h2 className={styles.cardTitle}>人脸照片</h2>
        <SelfieCamera onSubmit={onSubmit} />
        <ul className={styles.tips}>
          <li>请本人正对屏幕，脸部置于框内，保持光线充足</li>
          <li>请勿佩戴帽子、口罩或墨镜</li>
          <li>照片仅用于本次身份核验，加密存储</li>
        </ul>
      </section>
    </>
  );
}

function IdentityVerification() {
  const [identity, setIdentity] = useState<ConfirmedIdentity | null>(() => confirmedIdentity(getToken()));
  // What was typed or read off the card before a reload (the camera app's return often reloads).
  const [draft] = useState(() => readIdentityDraft(sessionStore, getStoredUid()));
  // Back from a failed check with the identity already confirmed: straight to the selfie.
  const [step, setStep] = useState<'identity' | 'selfie'>(() => (identity ? 'selfie' : 'identity'));
  const [failure] = useState(() => readFaceFailure(sessionStore));
  const go = useDelayedNavigate();

  const onVerified = (value: ConfirmedIdentity) => {
    rememberIdentity(value, getToken());
    setIdentity(value);
    setStep('selfie');
    window.scrollTo({ top: 0 });
  };

  const submitSelfie = async (photo: File) => {
    const url = await uploadFile(photo, 'face', { isPrivate: true });
    clearFaceFailure(sessionStore);
    savePendingFace(sessionStore, url);
    // Into the waiting page at once: the check runs there (issue 44.13).
    go(SPECIAL_ROUTES.faceVerificationLoading, {
      delayMs: delayBefore(SPECIAL_ROUTES.faceVerificationLoading),
    });
  };

  return (
    <main className={formStyles.page}>
      <PageHeader title="身份认证" />
      <CreditSteps current={step === 'identity' ? 'realName' : 'face'} className={formStyles.steps} />
      {failure && failure.reasons.length > 0 && <FailureNotice reasons={failure.reasons} />}
      {step === 'identity' || !identity ? (
        <IdentityStep
          initial={
            identity
              ? { realName: identity.realName, identity: identity.identity }
              : { realName: draft.realName, identity: draft.identity }
          }
          initialOcr={identity ? null : (draft.ocr ?? null)}
          onVerified={onVerified}
        />
      ) : (
        <SelfieStep identity={identity} onEdit={() => setStep('identity')} onSubmit={submitSelfie} />
      )}
    </main>
  );
}

/**
 * `/credit-process/identity-verification` (spec §2: face verification): name + ID number
 * (identityNameVerify), then a selfie from the front camera (file input when the camera is refused
 * or missing), uploaded to the private `face` folder; the check itself runs on
 * `/credit-process/face-verification-loading`.
 */
export function IdentityVerificationRoute() {
  return (
    <RequireLogin>
      <IdentityVerification />
    </RequireLogin>
  );
}
