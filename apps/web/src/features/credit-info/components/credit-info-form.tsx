import {
  CONTACT_NAME_PATTERN,
  CREDIT_MESSAGES,
  type CreditFormStep,
  contactLabel,
  contactPairProblems,
} from '@lm/shared/credit-info';
import { isValidPhone } from '@lm/shared/validators/phone';
import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import Input from 'antd-mobile/es/components/input';
import Skeleton from 'antd-mobile/es/components/skeleton';
import TextArea from 'antd-mobile/es/components/text-area';
import { type ReactNode, useEffect } from 'react';
import { CityPicker, cityValueOf } from '@/components/city-picker/city-picker';
import { ErrorState } from '@/components/error-state';
import { OptionPicker } from '@/components/option-picker/option-picker';
import { PrimaryButton } from '@/components/primary-button';
import {
  ANNUAL_INCOME_OPTIONS,
  CONTACT_RELATION_OPTIONS,
  EDUCATION_OPTIONS,
  LOAN_PURPOSE_OPTIONS,
  MARITAL_STATUS_OPTIONS,
  OCCUPATION_OPTIONS,
  type Option,
} from '@/config/form-options';
import { getStoredPhone, getStoredUid } from '@/lib/session';
import { sessionStore } from '@/lib/storage';
import { toast } from '@/lib/toast';
import styles from '@/styles/forms.module.css';
import { useBaseDetail } from '../api/get-base-detail';
import { useSaveBaseInfo } from '../api/save-base-info';
import { forgetCreditDraft, overDraft, readCreditDraft, saveCreditDraft } from '../credit-draft';
import { creditProcessStepOf } from '../steps';
import { useCreditWizardStore } from '../store';
import {
  type CreditFormValues,
  firstFormStep,
  previousStep,
  STEP_FIELD_NAMES,
  stepAfterSave,
  toFormValues,
  toPatch,
  valuesToAdopt,
} from '../wizard';
import own from './credit-info-form.module.css';
import { CreditSteps } from './credit-steps';

/** An enumeration of spec §3 as a picker (wheel) with its Chinese labels. */
function optionPicker<V extends string | number>(
  name: string | (string | number)[],
  label: string,
  options: readonly Option<V>[],
) {
  const key = Array.isArray(name) ? name.join('.') : name;
  return (
    <Form.Item
      key={key}
      name={name}
      label={label}
      arrow
      rules={[
        {
          validator: (_, value: unknown[] | undefined) =>
            value?.length && value[0] !== null && value[0] !== undefined
              ? Promise.resolve()
              : Promise.reject(new Error(`请选择${label}`)),
        },
      ]}
    >
      <OptionPicker options={options} title={label} placeholder={`请选择${label}`} />
    </Form.Item>
  );
}

function contactFields(index: 0 | 1) {
  const who = contactLabel(index);
  const other = index === 0 ? 1 : 0;
  return [
    <Form.Header key={`contact-${index}`}>{index === 0 ? '紧急联系人一' : '紧急联系人二'}</Form.Header>,
    optionPicker(['contacts', index, 'relationship'], '与本人关系', CONTACT_RELATION_OPTIONS),
    <Form.Item
      key={`name-${index}`}
      name={['contacts', index, 'name']}
      label="姓名"
      rules={[
        { required: true, whitespace: true, message: `请输入${who}姓名` },
        {
          validator: (_, value: string | undefined) =>
            !value?.trim() || CONTACT_NAME_PATTERN.test(value.replace(/\s/g, ''))
              ? Promise.resolve()
              : Promise.reject(new Error(CREDIT_MESSAGES.contactName(index))),
        },
      ]}
    >
      <Input placeholder="请输入联系人姓名" maxLength={20} clearable />
    </Form.Item>,
    <Form.Item
      key={`phone-${index}`}
      name={['contacts', index, 'phone']}
      label="手机号"
      dependencies={[['contacts', other, 'phone']]}
      rules={[
        { required: true, message: `请输入${who}手机号` },
        ({ getFieldValue }) => ({
          validator: (_, value: string | undefined) => {
            const phone = value?.replace(/\s/g, '') ?? '';
            if (!phone) return Promise.resolve();
            if (!isValidPhone(phone)) return Promise.reject(new Error('手机号格式不正确'));
            const pair = [0, 1].map((i) => ({
              phone:
                i === index
                  ? phone
                  : String(getFieldValue(['contacts', i, 'phone']) ?? '').replace(/\s/g, ''),
            }));
            const own = getStoredPhone();
            const problem = contactPairProblems(pair, (p) => p === own).find((p) => p.index === index);
            return problem ? Promise.reject(new Error(problem.message)) : Promise.resolve();
          },
        }),
      ]}
    >
      <Input type="tel" inputMode="numeric" placeholder="请输入11位手机号" maxLength={11} clearable />
    </Form.Item>,
  ];
}

function textRule(label: string, min: number) {
  return [
    { required: true, whitespace: true, message: `请输入${label}` },
    { min, message: `${label}至少${min}个字` },
  ];
}

const STEP_CONTENT: Record<CreditFormStep, () => ReactNode[]> = {
  INFORMATION: () => [
    <Form.Header key="h-info">基本信息</Form.Header>,
    optionPicker('education', '最高学历', EDUCATION_OPTIONS),
    optionPicker('maritalStatus', '婚姻状况', MARITAL_STATUS_OPTIONS),
    optionPicker('annualIncome', '年收入', ANNUAL_INCOME_OPTIONS),
    optionPicker('occupation', '所属行业', OCCUPATION_OPTIONS),
    optionPicker('loanPurpose', '借款用途', LOAN_PURPOSE_OPTIONS),
  ],
  CONTACT: () => [...contactFields(0), ...contactFields(1)],
  BASE: () => [
    <Form.Header key="h-home">居住信息</Form.Header>,
    <Form.Item
      key="residentialRegion"
      name="residentialRegion"
      label="居住城市"
      rules={[{ required: true, message: '请选择居住城市' }]}
    >
      <CityPicker title="选择居住城市" placeholder="请选择居住城市" />
    </Form.Item>,
    <Form.Item
      key="residentialAddress"
      name="residentialAddress"
      label="详细地址"
      rules={textRule('居住详细地址', 4)}
    >
      <TextArea placeholder="街道、小区、门牌号" maxLength={100} autoSize={{ minRows: 1, maxRows: 3 }} />
    </Form.Item>,
    <Form.Header key="h-company">单位信息</Form.Header>,
    <Form.Item key="companyName" name="companyName" label="单位名称" rules={textRule('单位名称', 2)}>
      <Input placeholder="请输入单位全称" maxLength={50} clearable />
    </Form.Item>,
    <Form.Item
      key="companyRegion"
      name="companyRegion"
      label="单位城市"
      rules={[{ required: true, message: '请选择单位所在城市' }]}
    >
      <CityPicker title="选择单位城市" placeholder="请选择单位所在城市" />
    </Form.Item>,
    <Form.Item
      key="companyAddress"
      name="companyAddress"
      label="单位地址"
      rules={textRule('单位详细地址', 4)}
    >
      <TextArea placeholder="街道、楼宇、门牌号" maxLength={100} autoSize={{ minRows: 1, maxRows: 3 }} />
    </Form.Item>,
  ],
};

interface CreditInfoFormProps {
  /** The record is complete (step DONE after the last save). */
  onDone: () => void;
  /** Face verification has not passed (step IDENTITY): the wizard cannot be filled in yet. */
  onIdentityNeeded: () => void;
}

/**
 * Credit information wizard (spec §3 base/credit info, §4 steps INFORMATION → CONTACT → BASE): opens
 * at the server's step with the stored record; each step is saved with POST
 * /api/app/userInfo/baseTempSave, which clears the modified flag and reloads the record.
 */
export function CreditInfoForm({ onDone, onIdentityNeeded }: CreditInfoFormProps) {
  const [form] = Form.useForm<CreditFormValues>();
  const detail = useBaseDetail();
  const save = useSaveBaseInfo();
  const step = useCreditWizardStore((s) => s.step);

  useEffect(() => {
    const { reset } = useCreditWizardStore.getState();
    reset();
    return reset;
  }, []);

  // A (re)loaded record fills the form: everything on arrival, the saved step's fields after a save
  // (edits on other steps not saved yet stay), nothing while the person has unsaved edits.
  const data = detail.data;
  useEffect(() => {
    if (!data) return;
    let cancelled = false;
    const store = useCreditWizardStore.getState;
    void (async () => {
      const [residentialRegion, companyRegion] = await Promise.all([
        cityValueOf(data.residentialRegion),
        cityValueOf(data.companyRegion),
      ]);
      if (cancelled) return;
      const opening = store().step === null;
      const adopt = valuesToAdopt(
        toFormValues(data, { residentialRegion, companyRegion }),
        store().adoptServerData(),
      );
      // Opening: what this tab typed and did not save yet (a reload mid-step) goes over the record.
      const draft = opening ? readCreditDraft(sessionStore, getStoredUid()) : {};
      if (adopt && Object.keys(draft).length > 0) {
        form.setFieldsValue(overDraft(adopt, draft));
        store().edit();
      } else if (adopt) form.setFieldsValue(adopt);
      if (opening) {
        const first = firstFormStep(data.step);
        if (first === 'IDENTITY') onIdentityNeeded();
        else store().goTo(first);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [data, form, onIdentityNeeded]);

  if (detail.isError) {
    return (
      <ErrorState title="加载失败" description="请稍后重试">
        <Button size="small" onClick={() => void detail.refetch()}>
          重新加载
        </Button>
      </ErrorState>
    );
  }

  const next = async () => {
    if (!step || save.isPending) return;
    try {
      await form.validateFields(STEP_FIELD_NAMES[step] as never);
    } catch {
      toast.show('请完善本页信息');
      return;
    }
    save.mutate(
      { step, patch: toPatch(step, form.getFieldsValue(true) as CreditFormValues) },
      {
        onSuccess: (answer) => {
          const after = stepAfterSave(step, answer.step);
          if (after === 'DONE') {
            forgetCreditDraft(sessionStore, getStoredUid());
            onDone();
          } else if (after === 'IDENTITY') onIdentityNeeded();
          else {
            useCreditWizardStore.getState().goTo(after);
            window.scrollTo({ top: 0 });
          }
        },
      },
    );
  };
  const back = step ? previousStep(step) : null;
  const known = step ?? data?.step ?? null;

  return (
    <div className={styles.formWrap}>
      <CreditSteps current={known ? creditProcessStepOf(known) : null} className={styles.steps} />
      {data ? (
        <Form
          form={form}
          layout="horizontal"
          mode="card"
          requiredMarkStyle="none"
          onValuesChange={() => {
            useCreditWizardStore.getState().edit();
            saveCreditDraft(sessionStore, getStoredUid(), form.getFieldsValue(true) as CreditFormValues);
          }}
          className={styles.form}
          footer={
            step && (
              <div className={styles.footer}>
                <PrimaryButton loading={save.isPending} onClick={next}>
                  {step === 'BASE' ? '提交资料' : '保存并继续'}
                </PrimaryButton>
                {back && (
                  <Button
                    block
                    fill="none"
                    size="middle"
                    onClick={() => useCreditWizardStore.getState().goTo(back)}
                  >
                    上一步
                  </Button>
                )}
                <p className={styles.safe}>资料仅用于借款审核，全程加密传输与存储</p>
              </div>
            )
          }
        >
          {step ? STEP_CONTENT[step]() : null}
        </Form>
      ) : (
        <div className={own.skeleton}>
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      )}
    </div>
  );
}
