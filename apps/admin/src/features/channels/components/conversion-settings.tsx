import { AD_PLATFORM_LABELS, AD_PLATFORMS, type AdPlatform, CLICK_ID_PARAMS } from '@lm/shared/ad-clicks';
import {
  ATTRIBUTION_WINDOW_DAYS,
  CONVERSION_STEP_HINTS,
  CONVERSION_STEP_LABELS,
  CONVERSION_STEPS,
  type ConversionStep,
  DEFAULT_EVENT_CODES,
  EVENT_CODE_PATTERNS,
  PLATFORM_CREDENTIALS,
  VALUED_STEPS,
} from '@lm/shared/conversions';
import type { ChannelConversionsData } from '@lm/shared/schemas/conversions';
import { formatShanghai } from '@lm/shared/time';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { QueryError } from '@/components/query-error';
import { ApiError } from '@/lib/api-client';
import { serverFieldErrors } from '@/lib/field-errors';
import { notifySuccess } from '@/lib/notify';
import { useChannelConversions } from '../api/get-channel-conversions';
import { useUpdateChannelConversions } from '../api/update-channel-conversions';
import {
  type ConversionsFormValues,
  conversionsBodyOf,
  conversionsFormOf,
  withPlatform,
} from '../conversions-form';

/** A field of this form by its path (the server names a refused field as `events.form.eventCode`). */
type FieldName = Parameters<
  ReturnType<typeof Form.useForm<ConversionsFormValues>>[0]['setFields']
>[0][number]['name'];

const PLATFORM_OPTIONS = AD_PLATFORMS.map((p) => ({ value: p, label: `${AD_PLATFORM_LABELS[p]}（${p}）` }));

export interface ConversionSettingsProps {
  channelId: number;
  canEdit: boolean;
}

/**
 * 转化回传 (issue 47.2): which ad platform the channel reports its conversions to, within which attribution
 * window, which of our steps go as which platform event, and the platform's credentials (secrets never shown).
 */
export function ConversionSettings({ channelId, canEdit }: ConversionSettingsProps) {
  const settings = useChannelConversions(channelId);
  let body: React.ReactNode;
  if (settings.isLoading) body = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (settings.isError || !settings.data)
    body = (
      <QueryError message="回传设置加载失败" error={settings.error} onRetry={() => void settings.refetch()} />
    );
  else body = <SettingsForm key={settings.data.updatedAt ?? 'new'} data={settings.data} canEdit={canEdit} />;
  return (
    <Card title="转化回传（oCPX）" size="small" style={{ marginTop: 16 }} data-testid="conversion-settings">
      {body}
    </Card>
  );
}

function SettingsForm({ data, canEdit }: { data: ChannelConversionsData; canEdit: boolean }) {
  const [form] = Form.useForm<ConversionsFormValues>();
  const initial = useMemo(() => conversionsFormOf(data), [data]);
  const [platform, setPlatform] = useState<AdPlatform>(initial.platform);
  const update = useUpdateChannelConversions();
  const [error, setError] = useState<string | null>(null);
  const readOnly = !canEdit;
  const sameAsStored = platform === data.platform;
  const fields = PLATFORM_CREDENTIALS[platform];

  const onPlatform = (p: AdPlatform) => {
    setPlatform(p);
    form.setFieldsValue(withPlatform(form.getFieldsValue(true) as ConversionsFormValues, p));
  };

  const onFinish = (values: ConversionsFormValues) => {
    setError(null);
    update.mutate(
      { id: data.channelId, body: conversionsBodyOf({ ...initial, ...values, platform }, data) },
      {
        onSuccess: () => notifySuccess('回传设置已保存'),
        onError: (err) => {
          const fieldErrors = serverFieldErrors(err);
          if (fieldErrors.length)
            form.setFields(
              fieldErrors.map((f) => ({
                name: f.field.split('.') as FieldName,
                errors: [f.message],
              })),
            );
          setError(err instanceof ApiError ? err.message : '保存失败，请稍后再试');
        },
      },
    );
  };

  const codeRule = (step: ConversionStep) => ({
    validator: async (_: unknown, value: string | undefined) => {
      const enabled = form.getFieldValue(['events', step, 'enabled']) as boolean;
      const v = (value ?? '').trim();
      if (enabled && v === '') throw new Error(`请填写${CONVERSION_STEP_LABELS[step]}的事件编码`);
      const { pattern, hint } = EVENT_CODE_PATTERNS[platform];
      if (v !== '' && !pattern.test(v)) throw new Error(`格式不对：${hint}`);
    },
  });

  const rows = CONVERSION_STEPS.map((step) => ({ step }));
  return (
    <Form<ConversionsFormValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      disabled={readOnly}
      onFinish={onFinish}
      aria-label="转化回传设置"
    >
      {data.problems.length ? (
        <Alert
          type={data.enabled ? 'error' : 'warning'}
          showIcon
          style={{ marginBottom: 12 }}
          message={data.enabled ? '回传无法进行' : '开启回传前需要处理'}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {data.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          }
        />
      ) : null}
      <Row gutter={16}>
        <Col span={6}>
          <Form.Item name="enabled" label="开启回传" valuePropName="checked">
            <Switch aria-label="开启转化回传" checkedChildren="已开启" unCheckedChildren="未开启" />
          </Form.Item>
        </Col>
        <Col span={10}>
          <Form.Item label="广告平台" required>
            <Select
              aria-label="回传广告平台"
              options={PLATFORM_OPTIONS}
              value={platform}
              onChange={onPlatform}
              disabled={readOnly}
            />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="windowDays"
            label="归因窗口（天）"
            extra="登录前多少天内的广告点击算作带来这个用户"
            rules={[{ required: true, message: '请填写归因窗口' }]}
          >
            <InputNumber
              aria-label="归因窗口（天）"
              min={ATTRIBUTION_WINDOW_DAYS.min}
              max={ATTRIBUTION_WINDOW_DAYS.max}
              precision={0}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      </Row>
      <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
        落地页采集 {CLICK_ID_PARAMS[platform].join(' 或 ')}
        作为点击标识，只把点击标识、事件、时间和金额发给广告平台，从不发送手机号、姓名或身份证号。
      </Typography.Paragraph>

      <Table
        size="small"
        pagination={false}
        rowKey="step"
        dataSource={rows}
        style={{ marginBottom: 16 }}
        columns={[
          {
            title: '我方步骤',
            dataIndex: 'step',
            width: 150,
            render: (step: ConversionStep) => (
              <>
                <div>{CONVERSION_STEP_LABELS[step]}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {CONVERSION_STEP_HINTS[step]}
                </Typography.Text>
              </>
            ),
          },
          {
            title: '回传',
            width: 70,
            render: (_, { step }) => (
              <Form.Item name={['events', step, 'enabled']} valuePropName="checked" noStyle>
                <Switch size="small" aria-label={`回传${CONVERSION_STEP_LABELS[step]}`} />
              </Form.Item>
            ),
          },
          {
            title: '平台事件编码',
            render: (_, { step }) => (
              <Form.Item
                name={['events', step, 'eventCode']}
                dependencies={[['events', step, 'enabled']]}
                rules={[codeRule(step)]}
                style={{ margin: 0 }}
              >
                <Input
                  aria-label={`${CONVERSION_STEP_LABELS[step]}的事件编码`}
                  placeholder={DEFAULT_EVENT_CODES[platform][step] || '该平台无默认编码'}
                />
              </Form.Item>
            ),
          },
          {
            title: '仅首次',
            width: 70,
            render: (_, { step }) => (
              <Form.Item name={['events', step, 'firstOnly']} valuePropName="checked" noStyle>
                <Checkbox aria-label={`${CONVERSION_STEP_LABELS[step]}仅首次回传`} />
              </Form.Item>
            ),
          },
          {
            title: '最低金额（元）',
            width: 150,
            render: (_, { step }) =>
              VALUED_STEPS.includes(step) ? (
                <Form.Item name={['events', step, 'minAmountYuan']} style={{ margin: 0 }}>
                  <InputNumber
                    aria-label={`${CONVERSION_STEP_LABELS[step]}最低金额（元）`}
                    min={0}
                    precision={2}
                    placeholder="不限"
                    style={{ width: '100%' }}
                  />
                </Form.Item>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
          {
            title: '回传金额',
            width: 80,
            render: (_, { step }) =>
              VALUED_STEPS.includes(step) ? (
                <Form.Item name={['events', step, 'sendValue']} valuePropName="checked" noStyle>
                  <Checkbox aria-label={`${CONVERSION_STEP_LABELS[step]}回传金额`} />
                </Form.Item>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
        ]}
      />

      {fields.length ? (
        <Row gutter={16}>
          {fields.map((f) => {
            const stored = sameAsStored ? data.credentials.find((c) => c.key === f.key) : undefined;
            return (
              <Col span={8} key={f.key}>
                <Form.Item
                  name={['credentials', f.key]}
                  label={f.label}
                  extra={
                    f.secret ? (stored?.set ? `已设置（${stored.shown}），留空则不修改` : '未设置') : f.hint
                  }
                  rules={[
                    {
                      validator: async (_: unknown, value: string | undefined) => {
                        const v = (value ?? '').trim();
                        if (v !== '' && !f.pattern.test(v)) throw new Error(`格式不对：${f.hint}`);
                      },
                    },
                  ]}
                >
                  {f.secret ? (
                    <Input.Password aria-label={f.label} autoComplete="new-password" placeholder={f.hint} />
                  ) : (
                    <Input aria-label={f.label} autoComplete="off" />
                  )}
                </Form.Item>
              </Col>
            );
          })}
        </Row>
      ) : (
        <Typography.Paragraph type="secondary">
          {AD_PLATFORM_LABELS[platform]}按点击自带的回调参数回传，不需要账户凭据。
        </Typography.Paragraph>
      )}

      {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} /> : null}
      {canEdit ? (
        <Space>
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            保存回传设置
          </Button>
          <Typography.Text type="secondary">
            {data.configured
              ? `上次保存：${formatShanghai(data.updatedAt ?? '', 'second')}`
              : '尚未保存（显示的是平台默认设置）'}
          </Typography.Text>
        </Space>
      ) : (
        <Typography.Text type="secondary">只读：管理员和运营可以修改。</Typography.Text>
      )}
    </Form>
  );
}
