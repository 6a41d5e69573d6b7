import { isValidPhone } from '@lm/shared/validators/phone';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input, Selector, Steps, TextArea, Toast } from 'antd-mobile';
import { type ReactNode, useState } from 'react';
import { CityPicker, type CityValue } from '@/components/city-picker/city-picker';
import { getStoredPhone } from '@/lib/session';
import { saveCreditInfo } from './api';
import styles from './forms.module.css';
import {
  ANNUAL_INCOME_OPTIONS,
  CONTACT_RELATION_OPTIONS,
  EDUCATION_OPTIONS,
  LOAN_PURPOSE_OPTIONS,
  MARITAL_STATUS_OPTIONS,
  OCCUPATION_OPTIONS,
} from './options';

/** Wizard steps of spec §4; IDENTITY is done before this page, DONE after it. */
const WIZARD = [
  { key: 'IDENTITY', title: '身份认证' },
  { key: 'INFORMATION', title: '基本信息' },
  { key: 'CONTACT', title: '联系人' },
  { key: 'BASE', title: '居住单位' },
  { key: 'DONE', title: '完成' },
] as const;

interface ContactValues {
  relationship?: string[];
  name?: string;
  phone?: string;
}

interface CreditValues {
  education?: number[];
  maritalStatus?: number[];
  annualIncome?: number[];
  occupation?: number[];
  loanPurpose?: number[];
  contacts?: ContactValues[];
  residentialRegion?: CityValue;
  residentialAddress?: string;
  companyName?: string;
  companyRegion?: CityValue;
  companyAddress?: string;
}

const STEP_FIELDS: (string | (string | number)[])[][] = [
  [],
  ['education', 'maritalStatus', 'annualIncome', 'occupation', 'loanPurpose'],
  [0, 1].flatMap((i) => [
    ['contacts', i, 'relationship'],
    ['contacts', i, 'name'],
    ['contacts', i, 'phone'],
  ]),
  ['residentialRegion', 'residentialAddress', 'companyName', 'companyRegion', 'companyAddress'],
];

function toBody(v: CreditValues): Record<string, unknown> {
  const first = <T,>(x: T[] | undefined) => x?.[0];
  return {
    education: first(v.education),
    maritalStatus: first(v.maritalStatus),
    annualIncome: first(v.annualIncome),
    occupation: first(v.occupation),
    loanPurpose: first(v.loanPurpose),
    residentialRegion: v.residentialRegion?.cityCode,
    residentialAddress: v.residentialAddress?.trim(),
    companyName: v.companyName?.trim(),
    companyRegion: v.companyRegion?.cityCode,
    companyAddress: v.companyAddress?.trim(),
    contacts: (v.contacts ?? []).map((c) => ({
      relationship: first(c.relationship),
      name: c.name?.trim(),
      phone: c.phone?.trim(),
    })),
  };
}

const select = (name: string, label: string, options: { label: string; value: number }[], columns = 3) => (
  <Form.Item key={name} name={name} label={label} rules={[{ required: true, message: `请选择${label}` }]}>
    <Selector columns={columns} options={options} className={styles.selector} />
  </Form.Item>
);

function contactFields(index: number) {
  return [
    <Form.Header key={`contact-${index}`}>{index === 0 ? '紧急联系人一' : '紧急联系人二'}</Form.Header>,
    <Form.Item
      key={`rel-${index}`}
      name={['contacts', index, 'relationship']}
      label="与本人关系"
      rules={[{ required: true, message: '请选择与本人关系' }]}
    >
      <Selector columns={5} options={CONTACT_RELATION_OPTIONS} className={styles.selector} />
    </Form.Item>,
    <Form.Item
      key={`name-${index}`}
      name={['contacts', index, 'name']}
      label="联系人姓名"
      rules={[{ required: true, message: '请输入联系人姓名' }]}
    >
      <Input placeholder="请输入联系人姓名" maxLength={20} clearable />
    </Form.Item>,
    <Form.Item
      key={`phone-${index}`}
      name={['contacts', index, 'phone']}
      label="联系人手机号"
      dependencies={[['contacts', index === 0 ? 1 : 0, 'phone']]}
      rules={[
        { required: true, message: '请输入联系人手机号' },
        ({ getFieldValue }) => ({
          validator: (_, value: string | undefined) => {
            if (!value) return Promise.resolve();
            if (!isValidPhone(value)) return Promise.reject(new Error('手机号格式不正确'));
            if (value === getStoredPhone()) return Promise.reject(new Error('联系人不能是本人手机号'));
            const other = getFieldValue(['contacts', index === 0 ? 1 : 0, 'phone']) as string | undefined;
            if (index === 1 && other && other === value)
              return Promise.reject(new Error('两位联系人不能相同'));
            return Promise.resolve();
          },
        }),
      ]}
    >
      <Input type="tel" inputMode="numeric" placeholder="请输入11位手机号" maxLength={11} clearable />
    </Form.Item>,
  ];
}

const STEP_CONTENT: (() => ReactNode[])[] = [
  () => [],
  () => [
    <Form.Header key="h-info">基本信息</Form.Header>,
    select('education', '最高学历', EDUCATION_OPTIONS),
    select('maritalStatus', '婚姻状况', MARITAL_STATUS_OPTIONS),
    select('annualIncome', '年收入', ANNUAL_INCOME_OPTIONS, 4),
    select('occupation', '所属行业', OCCUPATION_OPTIONS),
    select('loanPurpose', '借款用途', LOAN_PURPOSE_OPTIONS),
  ],
  () => [...contactFields(0), ...contactFields(1)],
  () => [
    <Form.Header key="h-home">居住信息</Form.Header>,
    <Form.Item
      key="residentialRegion"
      name="residentialRegion"
      label="居住城市"
      rules={[{ required: true, message: '请选择居住城市' }]}
    >
      <CityPicker title="选择居住城市" />
    </Form.Item>,
    <Form.Item
      key="residentialAddress"
      name="residentialAddress"
      label="详细地址"
      rules={[{ required: true, message: '请输入居住详细地址' }]}
    >
      <TextArea placeholder="街道、小区、门牌号" maxLength={100} autoSize={{ minRows: 1, maxRows: 3 }} />
    </Form.Item>,
    <Form.Header key="h-company">单位信息</Form.Header>,
    <Form.Item
      key="companyName"
      name="companyName"
      label="单位名称"
      rules={[{ required: true, message: '请输入单位名称' }]}
    >
      <Input placeholder="请输入单位全称" maxLength={50} clearable />
    </Form.Item>,
    <Form.Item
      key="companyRegion"
      name="companyRegion"
      label="单位城市"
      rules={[{ required: true, message: '请选择单位所在城市' }]}
    >
      <CityPicker title="选择单位城市" />
    </Form.Item>,
    <Form.Item
      key="companyAddress"
      name="companyAddress"
      label="单位地址"
      rules={[{ required: true, message: '请输入单位详细地址' }]}
    >
      <TextArea placeholder="街道、楼宇、门牌号" maxLength={100} autoSize={{ minRows: 1, maxRows: 3 }} />
    </Form.Item>,
  ],
];

interface CreditInfoFormProps {
  /** After a successful save. */
  onSaved: () => void;
}

/**
 * Credit information wizard (spec §3 base/credit info, §4 steps INFORMATION → CONTACT → BASE),
 * saved with POST /api/app/userInfo/baseTempSave. Contacts start as two blank entries.
 */
export function CreditInfoForm({ onSaved }: CreditInfoFormProps) {
  const [form] = Form.useForm<CreditValues>();
  const [step, setStep] = useState(1);
  const save = useMutation({ mutationFn: saveCreditInfo });
  const last = step === 3;

  const next = async () => {
    try {
      await form.validateFields(STEP_FIELDS[step] as never);
    } catch {
      Toast.show('请完善本页信息');
      return;
    }
    if (!last) {
      setStep(step + 1);
      window.scrollTo({ top: 0 });
      return;
    }
    save.mutate(toBody(form.getFieldsValue(true) as CreditValues), { onSuccess: onSaved });
  };

  return (
    <div className={styles.formWrap}>
      <Steps current={step} className={styles.steps}>
        {WIZARD.map((s) => (
          <Steps.Step key={s.key} title={s.title} />
        ))}
      </Steps>
      <Form
        form={form}
        layout="vertical"
        mode="card"
        requiredMarkStyle="none"
        initialValues={{ contacts: [{}, {}] }}
        className={styles.form}
        footer={
          <div className={styles.footer}>
            <Button
              block
              color="primary"
              shape="rounded"
              size="large"
              loading={save.isPending}
              onClick={next}
            >
              {last ? '提交资料' : '下一步'}
            </Button>
            {step > 1 && (
              <Button block fill="none" size="middle" onClick={() => setStep(step - 1)}>
                上一步
              </Button>
            )}
            <p className={styles.safe}>资料仅用于借款审核，全程加密传输与存储</p>
          </div>
        }
      >
        {STEP_CONTENT[step]!()}
      </Form>
    </div>
  );
}
