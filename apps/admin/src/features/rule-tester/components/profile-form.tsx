import { APPLICATION_OPTION_CODES } from '@lm/shared/application-fields';
import { REGIONS } from '@lm/shared/regions';
import {
  APPLICATION_OPTION_LABELS,
  type RuleTesterBody,
  type RuleTesterProfile,
} from '@lm/shared/schemas/admin-catalog';
import { APPLICATION_FIELD_LABELS, type ApplicationOptionField } from '@lm/shared/schemas/application';
import { shanghaiWallTime } from '@lm/shared/time';
import { Button, Card, Cascader, Col, Form, Input, InputNumber, Radio, Row, Select, Switch } from 'antd';

/** The form's option questions in its order, but payoffForm, which ruleTesterProfile has not. */
const FIELDS = (Object.keys(APPLICATION_OPTION_CODES) as ApplicationOptionField[]).filter(
  (field) => field !== 'payoffForm',
);

interface Values extends Omit<RuleTesterProfile, 'workCityCode'> {
  city: string[];
  ageBy: 'age' | 'identity';
  channelCode?: string;
  /** datetime-local value, Shanghai wall clock. */
  at?: string;
}

/** A Shenzhen employee, 30, who qualifies for several demo lenders. */
const DEFAULTS: Partial<Values> = {
  applyLimit: 2,
  job: 1,
  socialSecurity: 2,
  housingFund: 2,
  insurance: 2,
  houseProperty: 2,
  carProperty: 1,
  sesameCredit: 4,
  creditInvestigation: 1,
  city: ['440000', '440300'],
  ageBy: 'age',
  age: 30,
  isHuaWeiPhone: false,
};

/** The request of the form's values; the time is read as Shanghai time. */
function toBody(v: Values): RuleTesterBody {
  const profile: RuleTesterProfile = {
    applyLimit: v.applyLimit,
    job: v.job,
    socialSecurity: v.socialSecurity,
    housingFund: v.housingFund,
    insurance: v.insurance,
    houseProperty: v.houseProperty,
    carProperty: v.carProperty,
    sesameCredit: v.sesameCredit,
    creditInvestigation: v.creditInvestigation,
    workCityCode: v.city[v.city.length - 1] ?? '',
    ...(v.ageBy === 'identity' ? { identity: v.identity?.trim() } : { age: v.age }),
    isHuaWeiPhone: Boolean(v.isHuaWeiPhone),
  };
  return {
    profile,
    ...(v.channelCode?.trim() ? { channelCode: v.channelCode.trim() } : {}),
    ...(v.at ? { at: shanghaiWallTime(v.at).toISOString() } : {}),
  };
}

export interface ProfileFormProps {
  loading: boolean;
  onSubmit: (body: RuleTesterBody) => void;
}

/** The application form's fields, with the H5's option labels, for a sample applicant. */
export function ProfileForm({ loading, onSubmit }: ProfileFormProps) {
  const [form] = Form.useForm<Values>();
  const ageBy = Form.useWatch('ageBy', form);
  return (
    <Card title="样例用户资料" style={{ marginBottom: 16 }}>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={DEFAULTS}
        onFinish={(v) => onSubmit(toBody(v))}
      >
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="city" label="工作城市" rules={[{ required: true, message: '请选择工作城市' }]}>
              <Cascader
                options={REGIONS}
                showSearch={{ filter: (input, path) => path.some((o) => String(o.label).includes(input)) }}
                placeholder="选择省份和城市"
                aria-label="工作城市"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="ageBy" label="年龄依据">
              <Radio.Group
                options={[
                  { value: 'age', label: '直接填写年龄' },
                  { value: 'identity', label: '身份证号' },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            {ageBy === 'identity' ? (
              <Form.Item
                name="identity"
                label="身份证号"
                rules={[{ required: true, pattern: /^\d{17}[\dXx]$/, message: '请填写18位身份证号' }]}
              >
                <Input maxLength={18} placeholder="仅用于计算年龄，不保存" />
              </Form.Item>
            ) : (
              <Form.Item name="age" label="年龄" rules={[{ required: true, message: '请填写年龄' }]}>
                <InputNumber min={16} max={100} precision={0} style={{ width: '100%' }} aria-label="年龄" />
              </Form.Item>
            )}
          </Col>
          {FIELDS.map((field) => (
            <Col xs={12} md={6} key={field}>
              <Form.Item
                name={field}
                label={APPLICATION_FIELD_LABELS[field]}
                rules={[{ required: true, message: `请选择${APPLICATION_FIELD_LABELS[field]}` }]}
              >
                <Select
                  aria-label={APPLICATION_FIELD_LABELS[field]}
                  options={APPLICATION_OPTION_LABELS[field].map((o) => ({ value: o.value, label: o.label }))}
                />
              </Form.Item>
            </Col>
          ))}
          <Col xs={12} md={6}>
            <Form.Item name="isHuaWeiPhone" label="华为手机" valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="channelCode" label="渠道码（可选）" tooltip="提示该渠道对此城市的限制">
              <Input placeholder="如 demo" />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item
              name="at"
              label="测试时间（上海时间，可选）"
              tooltip="影响营业时段和当日名额；默认现在"
            >
              <Input type="datetime-local" />
            </Form.Item>
          </Col>
        </Row>
        <Button type="primary" htmlType="submit" loading={loading}>
          开始测试
        </Button>
      </Form>
    </Card>
  );
}
