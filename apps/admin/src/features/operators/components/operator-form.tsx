import type { OperatorDetail } from '@lm/shared/schemas/operators';
import {
  bareSmsSignature,
  FILING_NUMBER_MSG,
  FILING_NUMBER_PATTERN,
  OPERATOR_CODE_MSG,
  OPERATOR_CODE_PATTERN,
  SERVICE_PHONE_MSG,
  SERVICE_PHONE_PATTERN,
  SMS_SIGNATURE_MSG,
  SMS_SIGNATURE_PATTERN,
  smsSignatureText,
} from '@lm/shared/validators/operator';
import { Alert, Button, Card, Col, Descriptions, Form, Input, Row, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { useCreateOperator, useUpdateOperator } from '../api/save-operator';

interface FormValues {
  code: string;
  companyName: string;
  shortName: string;
  filingNumber: string;
  smsSignature: string;
  address: string;
  servicePhone: string;
  email: string;
}

const FIELDS = [
  'code',
  'companyName',
  'shortName',
  'filingNumber',
  'smsSignature',
  'address',
  'servicePhone',
  'email',
] as const;

export interface OperatorFormProps {
  /** null: a new operator. */
  operator: OperatorDetail | null;
  canEdit: boolean;
  onSaved: (saved: OperatorDetail) => void;
}

/**
 * Create or edit an operator (ADR 057): the legal party, its short name and filing number, the SMS signature,
 * and the contacts the privacy policy names. Beside it, how its channels' footer, agreements and SMS read.
 */
export function OperatorForm({ operator, canEdit, onSaved }: OperatorFormProps) {
  const [form] = Form.useForm<FormValues>();
  const create = useCreateOperator();
  const update = useUpdateOperator();
  const values = Form.useWatch([], form) as Partial<FormValues> | undefined;
  const initial: Partial<FormValues> = operator
    ? {
        code: operator.code,
        companyName: operator.companyName,
        shortName: operator.shortName,
        filingNumber: operator.filingNumber,
        smsSignature: operator.smsSignature,
        address: operator.address,
        servicePhone: operator.servicePhone,
        email: operator.email,
      }
    : {};

  const submit = async (v: FormValues) => {
    const { code, ...body } = v;
    try {
      const saved = operator
        ? await update.mutateAsync({ id: operator.id, body })
        : await create.mutateAsync({ ...body, code });
      onSaved(saved);
    } catch (err) {
      // The message is shown by the API client; point at the field the server names.
      const fields = (
        err instanceof ApiError ? (err.data as { fields?: { field: string; message: string }[] }) : null
      )?.fields;
      const known = (fields ?? []).filter((f) => (FIELDS as readonly string[]).includes(f.field));
      if (known.length)
        form.setFields(known.map((f) => ({ name: f.field as (typeof FIELDS)[number], errors: [f.message] })));
    }
  };

  const company = values?.companyName?.trim() || '（公司全称）';
  const short = values?.shortName?.trim() || '（简称）';
  const filing = values?.filingNumber?.trim() || '（备案号）';
  const signature = bareSmsSignature(values?.smsSignature ?? '') || '（签名）';

  return (
    <Row gutter={24}>
      <Col xs={24} lg={15}>
        {!canEdit && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message="只读：仅管理员和运营可以修改运营主体"
          />
        )}
        <Form<FormValues>
          form={form}
          layout="vertical"
          initialValues={initial}
          disabled={!canEdit}
          onFinish={(v) => void submit(v)}
          scrollToFirstError
        >
          <Card title="主体信息" size="small" style={{ marginBottom: 16 }}>
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item
                  name="code"
                  label="运营主体编码"
                  extra={operator ? '创建后不可修改' : '如 xinghe，创建后不可修改'}
                  rules={[
                    { required: true, message: '请填写运营主体编码' },
                    { pattern: OPERATOR_CODE_PATTERN, message: OPERATOR_CODE_MSG },
                  ]}
                >
                  <Input disabled={Boolean(operator)} maxLength={32} />
                </Form.Item>
              </Col>
              <Col xs={24} md={16}>
                <Form.Item
                  name="companyName"
                  label="公司全称（签约主体）"
                  extra="营业执照上的全称：页脚、协议和隐私政策中的签约方"
                  rules={[{ required: true, min: 4, message: '请填写公司全称（至少 4 个字）' }]}
                >
                  <Input maxLength={60} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item
                  name="shortName"
                  label="简称"
                  extra="协议中的“以下简称”"
                  rules={[{ required: true, min: 2, message: '请填写简称（至少 2 个字）' }]}
                >
                  <Input maxLength={20} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item
                  name="filingNumber"
                  label="备案号"
                  rules={[
                    { required: true, message: '请填写备案号' },
                    {
                      pattern: FILING_NUMBER_PATTERN,
                      message: FILING_NUMBER_MSG,
                      transform: (v: string) => v?.trim(),
                    },
                  ]}
                >
                  <Input placeholder="京ICP备2026000001号" maxLength={40} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item
                  name="smsSignature"
                  label="短信签名"
                  extra="2–12 个字，须与在短信服务商报备的签名一致"
                  rules={[
                    { required: true, message: '请填写短信签名' },
                    {
                      validator: async (_: unknown, v: string | undefined) => {
                        if (v && !SMS_SIGNATURE_PATTERN.test(bareSmsSignature(v)))
                          throw new Error(SMS_SIGNATURE_MSG);
                      },
                    },
                  ]}
                >
                  <Input addonBefore="【" addonAfter="】" maxLength={14} />
                </Form.Item>
              </Col>
            </Row>
          </Card>
          <Card title="联系方式（协议与隐私政策）" size="small" style={{ marginBottom: 16 }}>
            <Row gutter={16}>
              <Col xs={24}>
                <Form.Item
                  name="address"
                  label="注册地址"
                  rules={[{ required: true, min: 5, message: '请填写注册地址（至少 5 个字）' }]}
                >
                  <Input maxLength={120} />
                </Form.Item>
              </Col>
              <Col xs={24} md={10}>
                <Form.Item
                  name="servicePhone"
                  label="客服电话"
                  rules={[
                    { required: true, message: '请填写客服电话' },
                    {
                      pattern: SERVICE_PHONE_PATTERN,
                      message: SERVICE_PHONE_MSG,
                      transform: (v: string) => v?.trim(),
                    },
                  ]}
                >
                  <Input placeholder="400-800-2026" maxLength={20} />
                </Form.Item>
              </Col>
              <Col xs={24} md={14}>
                <Form.Item
                  name="email"
                  label="个人信息保护联系邮箱"
                  rules={[
                    { required: true, message: '请填写个人信息保护联系邮箱' },
                    { type: 'email', message: '个人信息保护联系邮箱格式不正确' },
                  ]}
                >
                  <Input maxLength={120} />
                </Form.Item>
              </Col>
            </Row>
          </Card>
          {canEdit && (
            <Space>
              <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending}>
                {operator ? '保存修改' : '创建运营主体'}
              </Button>
              {operator && (
                <Typography.Text type="secondary">
                  保存后，使用它的 {operator.channelCount}{' '}
                  个渠道的页脚、协议、隐私政策和短信立即改用新信息；已签署的授权书保持原文。
                </Typography.Text>
              )}
            </Space>
          )}
        </Form>
      </Col>
      <Col xs={24} lg={9}>
        <Card title="访客看到的" size="small" style={{ marginBottom: 16 }}>
          <Descriptions column={1} size="small" labelStyle={{ width: 72 }}>
            <Descriptions.Item label="页脚">
              {company} {filing}
            </Descriptions.Item>
            <Descriptions.Item label="协议">
              本协议是您与{company}（以下简称“{short}”）之间订立的协议。
            </Descriptions.Item>
            <Descriptions.Item label="短信">
              {smsSignatureText(signature)}您的登录验证码为123456，5分钟内有效。
            </Descriptions.Item>
          </Descriptions>
        </Card>
        {operator && (
          <Card title={`使用它的渠道（${operator.channels.length}）`} size="small">
            {operator.channels.length ? (
              <Space wrap>
                {operator.channels.map((c) => (
                  <Link key={c.id} to={`/channels/${c.id}`}>
                    {c.name}（{c.adChannelCode}）
                  </Link>
                ))}
              </Space>
            ) : (
              <Typography.Text type="secondary">还没有渠道使用它：在渠道的“运营主体”中选择。</Typography.Text>
            )}
          </Card>
        )}
      </Col>
    </Row>
  );
}
