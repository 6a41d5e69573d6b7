import { IDENTITY_VERIFIED_NOTE } from '@lm/shared/identity';
import { useMutation } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import Checkbox from 'antd-mobile/es/components/checkbox';
import Form from 'antd-mobile/es/components/form';
import Input from 'antd-mobile/es/components/input';
import Selector from 'antd-mobile/es/components/selector';
import Steps from 'antd-mobile/es/components/steps';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { CityPicker, type CityValue } from '@/components/city-picker/city-picker';
import {
  APPLY_LIMIT_OPTIONS,
  CAR_PROPERTY_OPTIONS,
  CREDIT_INVESTIGATION_OPTIONS,
  HOUSE_PROPERTY_OPTIONS,
  HOUSING_FUND_OPTIONS,
  INSURANCE_OPTIONS,
  JOB_OPTIONS,
  type Option,
  PAYOFF_FORM_OPTIONS,
  SESAME_CREDIT_OPTIONS,
  SOCIAL_SECURITY_OPTIONS,
} from '@/config/form-options';
import { isHuaweiPhone } from '@/lib/device';
import { toast } from '@/lib/toast';
import styles from '@/styles/forms.module.css';
import { type IdentityState, useVerifiedIdentity } from '../api/get-verified-identity';
import { type SaveApplicationInput, saveApplication } from '../api/save-application';
import { type AutoFormAnswers, toSelectorValues } from '../auto-form';
import { impliedStep } from '../form-draft';
import { ID_CARD_RULES, normalizeIdCard, REAL_NAME_RULES } from '../identity-rules';
import {
  type SuggestedWorkCity,
  useSuggestedWorkCity,
  WORK_CITY_NOTES,
  type WorkCitySuggestion,
} from '../located-work-city';
import { type FormDraft, useFormDraft } from '../use-form-draft';

type SelectName =
  | 'applyLimit'
  | 'job'
  | 'payoffForm'
  | 'socialSecurity'
  | 'housingFund'
  | 'insurance'
  | 'houseProperty'
  | 'carProperty'
  | 'sesameCredit'
  | 'creditInvestigation';
type FieldName = SelectName | 'workCity' | 'realName' | 'identity';

const SELECTS: Record<SelectName, { label: string; options: Option[]; columns: number }> = {
  applyLimit: { label: '借款金额', options: APPLY_LIMIT_OPTIONS, columns: 4 },
  job: { label: '职业身份', options: JOB_OPTIONS, columns: 4 },
  payoffForm: { label: '工资发放形式', options: PAYOFF_FORM_OPTIONS, columns: 3 },
  socialSecurity: { label: '社保', options: SOCIAL_SECURITY_OPTIONS, columns: 3 },
  housingFund: { label: '公积金', options: HOUSING_FUND_OPTIONS, columns: 3 },
  insurance: { label: '商业保险', options: INSURANCE_OPTIONS, columns: 3 },
  houseProperty: { label: '房产', options: HOUSE_PROPERTY_OPTIONS, columns: 3 },
  carProperty: { label: '车产', options: CAR_PROPERTY_OPTIONS, columns: 3 },
  sesameCredit: { label: '芝麻分', options: SESAME_CREDIT_OPTIONS, columns: 3 },
  creditInvestigation: { label: '信用记录', options: CREDIT_INVESTIGATION_OPTIONS, columns: 2 },
};

interface Section {
  title: string;
  fields: FieldName[];
}

const SECTIONS: Section[] = [
  { title: '借款需求', fields: ['applyLimit', 'workCity'] },
  { title: '职业信息', fields: ['job', 'payoffForm', 'socialSecurity', 'housingFund'] },
  { title: '资产信息', fields: ['houseProperty', 'carProperty', 'insurance'] },
  { title: '信用信息', fields: ['sesameCredit', 'creditInvestigation'] },
  { title: '身份信息', fields: ['realName', 'identity'] },
];

/** The stepped variant's steps: sections grouped three ways. */
const STEPS: { title: string; sections: number[] }[] = [
  { title: '借款需求', sections: [0, 1] },
  { title: '资产信用', sections: [2, 3] },
  { title: '身份信息', sections: [4] },
];

/** The fields of each step (a wizard resumes at the first step not fully answered, issue 16.3). */
const STEP_FIELDS: FieldName[][] = STEPS.map((s) => s.sections.flatMap((i) => SECTIONS[i]!.fields));

export interface FormValues {
  applyLimit?: number[];
  job?: number[];
  payoffForm?: number[];
  socialSecurity?: number[];
  housingFund?: number[];
  insurance?: number[];
  houseProperty?: number[];
  carProperty?: number[];
  sesameCredit?: number[];
  creditInvestigation?: number[];
  workCity?: CityValue;
  realName?: string;
  identity?: string;
}

/**
 * The form draft of spec §3 from the form's values (applicationSaveBody of @lm/shared); `autoForm`
 * when the automatic form pre-selected the answers and the person confirmed them.
 */
export function toDraft(
  values: FormValues,
  adChannelCode: string,
  huawei: boolean,
  autoForm = false,
  identityVerified = false,
): SaveApplicationInput {
  const first = (v: number[] | undefined) => v?.[0];
  // A verified identity is not sent: the server uses it (issue 16.1).
  const who = identityVerified
    ? {}
    : { realName: values.realName?.trim(), identity: values.identity?.trim().toUpperCase() };
  return {
    ...(autoForm ? { autoForm: true } : {}),
    adChannelCode,
    isHuaWeiPhone: huawei,
    applyLimit: first(values.applyLimit),
    job: first(values.job),
    payoffForm: first(values.payoffForm),
    socialSecurity: first(values.socialSecurity),
    housingFund: first(values.housingFund),
    insurance: first(values.insurance),
    houseProperty: first(values.houseProperty),
    carProperty: first(values.carProperty),
    sesameCredit: first(values.sesameCredit),
    creditInvestigation: first(values.creditInvestigation),
    workCity: values.workCity?.city,
    workCityCode: values.workCity?.cityCode,
    ...who,
  };
}

/**
 * The verified identity (or, while it is asked for, a disabled placeholder): shown, never editable
 * and never sent (issue 16.1).
 */
function renderFixedIdentity(name: 'realName' | 'identity', state: IdentityState) {
  const label = name === 'realName' ? '真实姓名' : '身份证号';
  const value = state.status === 'verified' ? state[name] : '';
  return (
    <Form.Item
      key={name}
      label={label}
      description={
        name === 'identity' && state.status === 'verified' ? (
          <span className={styles.verifiedNote}>{IDENTITY_VERIFIED_NOTE}</span>
        ) : undefined
      }
    >
      <Input
        value={value}
        disabled
        aria-label={label}
        placeholder={state.status === 'loading' ? '正在读取实名信息…' : undefined}
      />
    </Form.Item>
  );
}

function renderField(name: FieldName, identity: IdentityState, prefilledCity: SuggestedWorkCity | null) {
  if ((name === 'realName' || name === 'identity') && identity.status !== 'none') {
    return renderFixedIdentity(name, identity);
  }
  if (name === 'workCity') {
    return (
      <Form.Item
        key={name}
        name="workCity"
        label="工作城市"
        rules={[{ required: true, message: '请选择工作城市' }]}
        description={
          prefilledCity ? (
            <span className={styles.locatedNote}>{WORK_CITY_NOTES[prefilledCity.source]}</span>
          ) : undefined
        }
      >
        <CityPicker placeholder="请选择您工作所在城市" title="选择工作城市" />
      </Form.Item>
    );
  }
  if (name === 'realName') {
    return (
      <Form.Item key={name} name="realName" label="真实姓名" rules={REAL_NAME_RULES}>
        <Input placeholder="请输入身份证上的姓名" maxLength={20} clearable autoComplete="name" />
      </Form.Item>
    );
  }
  if (name === 'identity') {
    return (
      <Form.Item
        key={name}
        name="identity"
        label="身份证号"
        normalize={normalizeIdCard}
        rules={ID_CARD_RULES}
      >
        <Input placeholder="请输入18位身份证号" maxLength={18} clearable />
      </Form.Item>
    );
  }
  const field = SELECTS[name];
  return (
    <Form.Item
      key={name}
      name={name}
      label={field.label}
      rules={[{ required: true, message: `请选择${field.label}` }]}
    >
      <Selector columns={field.columns} options={field.options} className={styles.selector} />
    </Form.Item>
  );
}

export type ApplicationFormLayout = 'sections' | 'stepped';

interface ApplicationFormProps {
  adChannelCode: string;
  /** 'stepped': one group of sections at a time with a step bar (fill-information-three). */
  layout?: ApplicationFormLayout;
  submitText?: string;
  /** The agreements the submit consents to (links). */
  agreements: readonly { key: string; title: string; path: string }[];
  /** Called with the match result after a successful save. */
  onSaved: (result: unknown) => void;
  /** Shown above the first section. */
  intro?: ReactNode;
  /**
   * Answers pre-selected by the automatic form (Haier): shown for the person to confirm or change;
   * the save then says `autoForm: true`. Name, ID and city are never pre-filled.
   */
  autoAnswers?: AutoFormAnswers | null;
  /** An earlier draft's answers, shown for the person to change (coverStatus=1). */
  prefill?: FormValues;
  /**
   * The city to start the work city with, and where it comes from: the visitor's location by the IP
   * (issue 16.11), or the credit information just entered (issue 44.18).
   */
  suggestWorkCity: () => Promise<WorkCitySuggestion | null>;
}

/**
 * The application form (spec §3 form draft), saved with POST /api/user/info/save. It opens with the
 * stored draft (issue 16.3): a placeholder while the server's is awaited (a moment at most).
 */
export function ApplicationForm(props: ApplicationFormProps) {
  const identity = useVerifiedIdentity();
  const draft = useFormDraft({
    adChannelCode: props.adChannelCode,
    identityVerified: identity.status === 'verified',
  });
  if (!draft.ready) {
    return (
      <div className={styles.formWrap}>
        <div className={styles.formPlaceholder} aria-busy="true" aria-hidden="true">
          <span />
          <span />
          <span />
          <span />
        </div>
      </div>
    );
  }
  return <LoadedApplicationForm {...props} identity={identity} draft={draft} />;
}

function LoadedApplicationForm({
  adChannelCode,
  layout = 'sections',
  submitText = '提交申请',
  agreements,
  onSaved,
  intro,
  autoAnswers,
  prefill,
  suggestWorkCity,
  identity,
  draft,
}: ApplicationFormProps & { identity: IdentityState; draft: FormDraft }) {
  const [form] = Form.useForm<FormValues>();
  const autoForm = Boolean(autoAnswers);
  const [agreed, setAgreed] = useState(false);
  const save = useMutation({ mutationFn: saveApplication });
  const stepped = layout === 'stepped';
  // The stored draft (what the person typed) wins over pre-selected or earlier answers.
  const [initialValues] = useState<FormValues>(() => ({
    ...(autoAnswers ? toSelectorValues(autoAnswers) : prefill),
    ...draft.initial,
  }));
  const [step, setStep] = useState(() => (stepped ? impliedStep(initialValues, STEP_FIELDS) : 0));
  const lastStep = !stepped || step === STEPS.length - 1;
  const visible = stepped ? STEPS[step]!.sections.map((i) => SECTIONS[i]!) : SECTIONS;
  // Issues 16.11, 44.18: the work city suggested (not for the automatic form, whose city the person
  // enters, nor over an earlier draft's); its note while the person keeps it.
  const suggested = useSuggestedWorkCity(form, !autoForm && !prefill?.workCity, suggestWorkCity);
  const workCity = Form.useWatch('workCity', form);
  const prefilledCity =
    suggested !== null && workCity?.cityCode === suggested.city.cityCode ? suggested : null;

  const submit = () => {
    if (save.isPending) return;
    if (!agreed) {
      toast.show('请先阅读并同意授权协议');
      return;
    }
    if (identity.status === 'loading') return;
    const values = form.getFieldsValue(true) as FormValues;
    const body = toDraft(values, adChannelCode, isHuaweiPhone(), autoForm, identity.status === 'verified');
    save.mutate(body, {
      onSuccess: (result) => {
        draft.clear();
        onSaved(result);
      },
    });
  };

  const next = async () => {
    try {
      await form.validateFields(visible.flatMap((s) => s.fields));
      setStep((s) => s + 1);
      window.scrollTo({ top: 0 });
    } catch {
      toast.show('请完善本页信息');
    }
  };

  return (
    <div className={styles.formWrap}>
      {stepped && (
        <Steps current={step} className={styles.steps}>
          {STEPS.map((s) => (
            <Steps.Step key={s.title} title={s.title} />
          ))}
        </Steps>
      )}
      {intro}
      {autoForm && (
        <p className={styles.autoNotice} role="note">
          我们已为您预选了各选项，预选内容并非您的真实情况，请逐项核对并改为您的实际情况；姓名、身份证号和工作城市请您本人填写。确认无误后再提交。
        </p>
      )}
      <Form
        form={form}
        initialValues={initialValues}
        onValuesChange={() => draft.onChange(form.getFieldsValue(true) as FormValues)}
        layout="vertical"
        mode="card"
        requiredMarkStyle="none"
        onFinish={submit}
        onFinishFailed={() => toast.show('请完善申请信息')}
        className={styles.form}
        footer={
          <div className={styles.footer}>
            {lastStep && (
              <Checkbox checked={agreed} onChange={setAgreed} className={styles.agree}>
                <span>我已阅读并同意</span>
                {agreements.map((a) => (
                  <Link key={a.key} to={a.path} onClick={(e) => e.stopPropagation()}>
                    《{a.title}》
                  </Link>
                ))}
              </Checkbox>
            )}
            {/*
              Distinct keys: React must not turn the clicked "下一步" button into the submit button
              while the click is still being handled (its default action would then submit step 3).
            */}
            {lastStep ? (
              <Button
                key="submit"
                block
                type="submit"
                color="primary"
                shape="rounded"
                size="large"
                loading={save.isPending}
              >
                {submitText}
              </Button>
            ) : (
              <Button key="next" block color="primary" shape="rounded" size="large" onClick={next}>
                下一步
              </Button>
            )}
            {stepped && step > 0 && (
              <Button block fill="none" size="middle" onClick={() => setStep((s) => s - 1)}>
                上一步
              </Button>
            )}
            <p className={styles.safe}>信息仅用于匹配借款产品，向任何机构提供前均会单独征得您的同意</p>
          </div>
        }
      >
        {visible.flatMap((section) => [
          <Form.Header key={`header-${section.title}`}>{section.title}</Form.Header>,
          ...section.fields.map((name) => renderField(name, identity, prefilledCity)),
        ])}
      </Form>
    </div>
  );
}
