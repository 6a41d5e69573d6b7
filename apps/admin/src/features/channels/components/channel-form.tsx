import { SKINS } from '@lm/shared/channel';
import { type ChannelAdminDetail, FLAG_GROUPS, LINK_TYPE_OPTIONS } from '@lm/shared/schemas/admin-channels';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useCreateChannel } from '../api/create-channel';
import { useOperatorChoices } from '../api/get-operator-choices';
import { useUpdateChannel } from '../api/update-channel';
import { type ChannelFormValues, draftFromForm, EMPTY_CHANNEL, formFieldOf, formFromDetail } from '../form';
import { ArmsEditor } from './arms-editor';
import { ChannelPreview } from './channel-preview';
import { RegionPicker } from './region-picker';
import { RouteCodesTable } from './route-codes-table';

const SKIN_OPTIONS = SKINS.map((s) => ({ value: s, label: `skin${s}${s === 17 ? '（默认）' : ''}` }));
const [COLOUR_GROUP, FLOW_GROUP, FEATURE_GROUP] = FLAG_GROUPS;

export interface ChannelFormProps {
  /** The saved channel; undefined for a new one. */
  detail?: ChannelAdminDetail;
  canEdit: boolean;
  onCreated?: (detail: ChannelAdminDetail) => void;
}

/** The channel edit form with its live phone preview beside it. */
export function ChannelForm({ detail, canEdit, onCreated }: ChannelFormProps) {
  const [form] = Form.useForm<ChannelFormValues>();
  const initial = useMemo(() => (detail ? formFromDetail(detail) : EMPTY_CHANNEL), [detail]);
  const [values, setValues] = useState<ChannelFormValues>(initial);
  const [previewSkin, setPreviewSkin] = useState<number | null>(null);
  const create = useCreateChannel();
  const update = useUpdateChannel();
  const saving = create.isPending || update.isPending;
  const readOnly = !canEdit;

  const previewDraft = useMemo(() => {
    const draft = draftFromForm(values);
    const armSkins = (draft.skinArms ?? []).map((a) => a.skin);
    return {
      ...draft,
      name: draft.name || '新渠道',
      adChannelCode: values.adChannelCode?.trim() || undefined,
      ...(previewSkin !== null && armSkins.includes(previewSkin) ? { previewSkin } : {}),
    };
  }, [values, previewSkin]);

  async function save() {
    let v: ChannelFormValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const all = { ...form.getFieldsValue(true), ...v } as ChannelFormValues;
    const draft = draftFromForm(all);
    try {
      if (detail) {
        await update.mutateAsync({ id: detail.id, draft });
        notifySuccess('已保存，H5 立即生效');
      } else {
        const created = await create.mutateAsync({ ...draft, adChannelCode: all.adChannelCode.trim() });
        notifySuccess('渠道已创建');
        onCreated?.(created);
      }
    } catch (err) {
      // The message is shown by the API client; point at the field when the server names one.
      const fields = (
        err instanceof ApiError ? (err.data as { fields?: { field: string; message: string }[] }) : null
      )?.fields;
      const mapped = (fields ?? [])
        .map((f) => ({ name: formFieldOf(f.field), errors: [f.message] }))
        .filter((f): f is { name: (string | number)[]; errors: string[] } => f.name !== null);
      if (mapped.length) form.setFields(mapped as Parameters<typeof form.setFields>[0]);
      else if (err instanceof ApiError && err.code === 400 && /域名/.test(err.msg))
        form.setFields([{ name: 'allowedHosts', errors: [err.msg] }]);
    }
  }

  const abEnabled = Boolean(values.abEnabled);
  const choices = useOperatorChoices();
  const fallback = choices.data?.fallback;
  const operatorOptions = [
    {
      value: '',
      label: fallback ? `默认运营主体：${fallback.companyName}（服务器配置）` : '默认运营主体（服务器配置）',
    },
    ...(choices.data?.list ?? []).map((o) => ({
      value: o.code,
      label: `${o.companyName}（${o.shortName}）`,
    })),
  ];
  // What the footer will name: the operator picked, else the configured one.
  const footerPreview = values.operatorCode
    ? (choices.data?.list.find((o) => o.code === values.operatorCode) ?? null)
    : (fallback ?? null);

  return (
    <Row gutter={24} wrap={false} style={{ alignItems: 'flex-start' }}>
      <Col flex="auto" style={{ minWidth: 560 }}>
        {readOnly && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message="只读：仅管理员和运营可以修改渠道"
          />
        )}
        {detail && detail.unknownFlags.length > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message={`该渠道有未知的功能标记：${detail.unknownFlags.join('、')}`}
            description="这些标记对 H5 没有作用，保存后将被移除。"
          />
        )}
        <Form<ChannelFormValues>
          form={form}
          layout="vertical"
          initialValues={initial}
          disabled={readOnly}
          onValuesChange={() => setValues({ ...(form.getFieldsValue(true) as ChannelFormValues) })}
          scrollToFirstError
        >
          <Card title="基本信息" size="small" style={{ marginBottom: 16 }}>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item
                  name="adChannelCode"
                  label="渠道码"
                  extra={
                    detail
                      ? '渠道码已在广告链接中使用，不能修改'
                      : '广告链接中的 adChannelCode，创建后不能修改'
                  }
                  rules={[
                    { required: true, message: '请填写渠道码' },
                    {
                      pattern: /^[A-Za-z0-9_.-]{1,64}$/,
                      message: '渠道码为 1 到 64 位字母、数字、下划线、点或短横线',
                    },
                  ]}
                >
                  <Input disabled={Boolean(detail) || readOnly} placeholder="如 douyin-spring" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  name="name"
                  label="渠道名称"
                  rules={[{ required: true, whitespace: true, message: '请填写渠道名称' }]}
                >
                  <Input maxLength={40} placeholder="如 抖音春季投放" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  name="linkType"
                  label="链接类型"
                  rules={[{ required: true, message: '请选择链接类型' }]}
                >
                  <Select options={LINK_TYPE_OPTIONS} aria-label="链接类型" />
                </Form.Item>
              </Col>
              <Col span={6}>
                <Form.Item name="enabled" label="启用" valuePropName="checked">
                  <Switch checkedChildren="启用" unCheckedChildren="停用" />
                </Form.Item>
              </Col>
              <Col span={6}>
                <Form.Item
                  name="needsLocation"
                  label="登录后定位"
                  valuePropName="checked"
                  tooltip="登录后获取访客所在城市，排除城市的访客走相应流程"
                >
                  <Switch />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="pageTitle" label="页面标题" extra="留空则使用各页面的默认标题">
                  <Input maxLength={40} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="pageIcon" label="页面图标地址">
                  <Input placeholder="https://… 或 data: 图片" />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          <Card title="皮肤与功能标记" size="small" style={{ marginBottom: 16 }}>
            <Form.Item
              name="skin"
              label="皮肤"
              rules={[{ required: true, message: '请选择皮肤' }]}
              extra="未开启 A/B 分流时所有访客看到该皮肤"
            >
              <Select
                options={SKIN_OPTIONS}
                aria-label="皮肤"
                showSearch
                optionFilterProp="label"
                style={{ width: 200 }}
              />
            </Form.Item>
            {COLOUR_GROUP && (
              <Form.Item name="colour" label={COLOUR_GROUP.title}>
                <Radio.Group>
                  <Radio value="">经典红（默认）</Radio>
                  {COLOUR_GROUP.flags.map((f) => (
                    <Radio key={f.flag} value={f.flag} title={f.description}>
                      {f.label}
                    </Radio>
                  ))}
                </Radio.Group>
              </Form.Item>
            )}
            {FLOW_GROUP && (
              <Form.Item name="flow" label={FLOW_GROUP.title}>
                <Radio.Group>
                  <Space direction="vertical">
                    <Radio value="">默认流程（/fill-information）</Radio>
                    {FLOW_GROUP.flags.map((f) => (
                      <Radio key={f.flag} value={f.flag}>
                        {f.label} <Typography.Text type="secondary">{f.description}</Typography.Text>
                      </Radio>
                    ))}
                  </Space>
                </Radio.Group>
              </Form.Item>
            )}
            {FEATURE_GROUP && (
              <Form.Item name="features" label={FEATURE_GROUP.title}>
                <Checkbox.Group>
                  <Space direction="vertical">
                    {FEATURE_GROUP.flags.map((f) => (
                      <Checkbox key={f.flag} value={f.flag}>
                        {f.label}（{f.flag}）{' '}
                        <Typography.Text type="secondary">{f.description}</Typography.Text>
                      </Checkbox>
                    ))}
                  </Space>
                </Checkbox.Group>
              </Form.Item>
            )}
          </Card>

          <Card
            title="A/B 皮肤分流"
            size="small"
            style={{ marginBottom: 16 }}
            extra={
              <Form.Item name="abEnabled" valuePropName="checked" noStyle>
                <Switch aria-label="开启 A/B 分流" checkedChildren="已开启" unCheckedChildren="未开启" />
              </Form.Item>
            }
          >
            {abEnabled ? (
              <>
                <Typography.Paragraph type="secondary">
                  访客按设备指纹（尚无指纹时按
                  IP）固定分到一个皮肤，比例按权重；转化漏斗可按皮肤逐步对比。修改分流会重新分配访客。
                </Typography.Paragraph>
                <ArmsEditor
                  disabled={readOnly}
                  arms={values.skinArms ?? []}
                  previewSkin={previewSkin}
                  onPreview={setPreviewSkin}
                />
              </>
            ) : (
              <Typography.Text type="secondary">未开启：所有访客看到上面选择的皮肤。</Typography.Text>
            )}
          </Card>

          <Card title="排除城市" size="small" style={{ marginBottom: 16 }}>
            <Form.Item
              name="excludeCityCodes"
              extra="这些城市的访客不在本渠道服务范围内（需开启登录后定位）"
              style={{ marginBottom: 0 }}
            >
              <RegionPicker disabled={readOnly} />
            </Form.Item>
          </Card>

          <Card title="跳转" size="small" style={{ marginBottom: 16 }}>
            <Form.Item
              name="allowedHosts"
              label="允许跳转的域名"
              extra="计划落地页和机构页面只能跳转到这些域名（如 partner.example.com，回车添加）"
            >
              <Select
                mode="tags"
                aria-label="允许跳转的域名"
                tokenSeparators={[',', ' ', '，']}
                open={false}
                placeholder="输入域名后回车"
              />
            </Form.Item>
            <Form.Item
              name="planTargetUrl"
              label="计划落地页"
              extra="https:// 开头且域名在上面的列表中，或以 / 开头的站内路径；留空则不跳转"
            >
              <Input placeholder="https://partner.example.com/apply" />
            </Form.Item>
            {detail ? (
              <>
                <Typography.Text strong>路由码</Typography.Text>
                <div style={{ marginTop: 8 }}>
                  <RouteCodesTable
                    channelId={detail.id}
                    adChannelCode={detail.adChannelCode}
                    routeCodes={detail.routeCodes}
                    canEdit={canEdit}
                  />
                </div>
              </>
            ) : (
              <Typography.Text type="secondary">创建渠道后可添加路由码。</Typography.Text>
            )}
          </Card>

          <Card
            title="广告回传（track_report）"
            size="small"
            style={{ marginBottom: 16 }}
            extra={
              <Form.Item name="trackEnabled" valuePropName="checked" noStyle>
                <Switch aria-label="开启广告回传" checkedChildren="已开启" unCheckedChildren="未开启" />
              </Form.Item>
            }
          >
            {values.trackEnabled ? (
              <Row gutter={16}>
                <Col span={10}>
                  <Form.Item
                    name="trackPlatform"
                    label="广告平台"
                    rules={[{ required: true, message: '请填写广告平台，如 oceanengine、baidu、kuaishou' }]}
                  >
                    <Input placeholder="oceanengine" />
                  </Form.Item>
                </Col>
                <Col span={14}>
                  <Form.Item
                    name="trackParams"
                    label="回传参数"
                    extra="落地页地址中要采集并随请求回传的参数名"
                    rules={[
                      {
                        required: true,
                        type: 'array',
                        min: 1,
                        message: '至少填写一个回传参数（如 clickid、callback）',
                      },
                    ]}
                  >
                    <Select
                      mode="tags"
                      open={false}
                      aria-label="回传参数"
                      tokenSeparators={[',', ' ']}
                      placeholder="clickid、callback"
                    />
                  </Form.Item>
                </Col>
              </Row>
            ) : (
              <Typography.Text type="secondary">未开启：不采集广告平台的回传参数。</Typography.Text>
            )}
          </Card>

          <Card title="运营主体" size="small" style={{ marginBottom: 16 }}>
            <Form.Item
              name="operatorCode"
              label="签约主体（页脚、协议、隐私政策、短信签名）"
              extra={
                <>
                  访客从本渠道进入，就与这家公司签约：页脚、各协议、隐私政策和短信签名都取自它的记录。
                  <Link to="/operators">管理运营主体</Link>
                </>
              }
            >
              <Select
                aria-label="运营主体"
                loading={choices.isPending}
                options={operatorOptions}
                optionFilterProp="label"
                showSearch
              />
            </Form.Item>
            {footerPreview && (
              <Typography.Text type="secondary">
                页脚显示：{footerPreview.companyName} {footerPreview.filingNumber}
              </Typography.Text>
            )}
          </Card>
        </Form>
        <div
          style={{
            position: 'sticky',
            bottom: 0,
            background: '#fff',
            padding: '12px 0',
            borderTop: '1px solid #f0f0f0',
            zIndex: 2,
          }}
        >
          <Space>
            <Button type="primary" onClick={() => void save()} loading={saving} disabled={readOnly}>
              {detail ? '保存' : '创建渠道'}
            </Button>
            <Button
              disabled={readOnly || saving}
              onClick={() => {
                form.resetFields();
                setValues(initial);
              }}
            >
              还原
            </Button>
          </Space>
        </div>
      </Col>
      <Col flex="none" style={{ position: 'sticky', top: 16 }}>
        {readOnly ? (
          // A preview token is signed for editors only (a viewer's request is refused): no request, a note.
          <Card size="small" title="实时预览" style={{ width: 375 + 24 }}>
            <Typography.Text type="secondary">
              只读账号不生成预览；管理员和运营编辑时可看到手机上的实时效果。
            </Typography.Text>
          </Card>
        ) : (
          <ChannelPreview draft={previewDraft} />
        )}
      </Col>
    </Row>
  );
}
