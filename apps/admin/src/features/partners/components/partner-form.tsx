import { bpsToPercentText, percentTextToBps } from '@lm/shared/money';
import {
  DELIVERY_MODE_LABELS,
  DELIVERY_MODES,
  LINK_TYPE_LABELS,
  type PartnerItem,
  type PartnerSecretData,
  POLL_INTERVAL_MINUTES,
} from '@lm/shared/schemas/admin-catalog';
import { RETURN_RATE_BPS, RETURN_WINDOW_DAYS } from '@lm/shared/schemas/returns';
import { formatShanghai } from '@lm/shared/time';
import { CONTACT_PHONE_PATTERN } from '@lm/shared/validators/phone';
import {
  Alert,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { serverFieldErrors } from '@/lib/field-errors';
import { useCreatePartner } from '../api/create-partner';
import { useUpdatePartner } from '../api/update-partner';

type DeliveryMode = (typeof DELIVERY_MODES)[number];

/**
 * Only "is it a web address": the server decides whether the host may be used (ADR 019) and says why
 * not. antd's `type: 'url'` refused numeric hosts (http://2130706433/) with a misleading message.
 */
const ENDPOINT_RULES = [
  {
    validator: async (_: unknown, value: string | undefined) => {
      if (!value?.trim()) return;
      let url: URL | null = null;
      try {
        url = new URL(value.trim());
      } catch {
        url = null;
      }
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new Error('不是有效的网址');
    },
  },
];

interface FormValues {
  code: string;
  legalName: string;
  licenceNumber: string;
  contactName: string;
  contactPhone?: string;
  apiEndpoint?: string;
  dupCheckEndpoint?: string;
  allowedHosts: string[];
  deliveryModes: Partial<Record<string, DeliveryMode>>;
  status: 'active' | 'suspended';
  statusQueryEndpoint?: string;
  pollEnabled: boolean;
  pollIntervalMinutes: number;
  /** Lead returns (issue 48.4): days after delivery, and the monthly rate as a percentage typed ("20", "1.5"). */
  returnWindowDays: number;
  maxReturnRate: string;
}

/** The monthly return rate as typed → bps, or why not (0 %–100 %, at most two decimals). */
function returnRateBps(text: string): { bps: number } | { problem: string } {
  const read = percentTextToBps(text ?? '');
  if ('problem' in read) return read;
  if (read.bps < RETURN_RATE_BPS.min || read.bps > RETURN_RATE_BPS.max)
    return { problem: '每月最高退回率应在 0% 到 100% 之间' };
  return read;
}

const LINK_TYPES = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

const FORM_FIELDS: readonly (keyof FormValues)[] = [
  'code',
  'legalName',
  'licenceNumber',
  'contactName',
  'contactPhone',
  'apiEndpoint',
  'dupCheckEndpoint',
  'allowedHosts',
  'deliveryModes',
  'status',
  'statusQueryEndpoint',
  'pollEnabled',
  'pollIntervalMinutes',
  'returnWindowDays',
  'maxReturnRate',
];

/**
 * The form item a field the server names belongs to: `apiEndpoint` → apiEndpoint, `allowedHosts.1` →
 * allowedHosts, `deliveryModes.2` → ['deliveryModes', '2']; null when the form has no such item.
 */
function formNameOf(field: string): keyof FormValues | ['deliveryModes', string] | null {
  const [head = '', sub] = field.split('.');
  const name = FORM_FIELDS.find((f) => f === head);
  if (!name) return null;
  return name === 'deliveryModes' && sub && LINK_TYPES.includes(sub) ? [name, sub] : name;
}
const MODE_OPTIONS = DELIVERY_MODES.map((m) => ({ value: m, label: DELIVERY_MODE_LABELS[m] }));

export interface PartnerFormProps {
  /** null: a new partner. */
  partner: PartnerItem | null;
  canEdit: boolean;
  onCreated: (data: PartnerSecretData) => void;
  onSaved: () => void;
}

/** Create or edit a lender: identity, contact (phone stored encrypted, shown masked), endpoints, hosts, delivery. */
export function PartnerForm({ partner, canEdit, onCreated, onSaved }: PartnerFormProps) {
  const [form] = Form.useForm<FormValues>();
  const create = useCreatePartner();
  const update = useUpdatePartner();
  const initial: Partial<FormValues> = partner
    ? {
        code: partner.code,
        legalName: partner.legalName,
        licenceNumber: partner.licenceNumber,
        contactName: partner.contactName,
        apiEndpoint: partner.apiEndpoint ?? undefined,
        dupCheckEndpoint: partner.dupCheckEndpoint ?? undefined,
        allowedHosts: partner.allowedHosts,
        deliveryModes: partner.deliveryModes as FormValues['deliveryModes'],
        status: partner.status,
        statusQueryEndpoint: partner.statusQueryEndpoint ?? undefined,
        pollEnabled: partner.pollEnabled,
        pollIntervalMinutes: partner.pollIntervalMinutes,
        returnWindowDays: partner.returnWindowDays,
        maxReturnRate: bpsToPercentText(partner.maxReturnRateBps),
      }
    : {
        allowedHosts: [],
        deliveryModes: {},
        status: 'active',
        pollEnabled: false,
        pollIntervalMinutes: POLL_INTERVAL_MINUTES.default,
        returnWindowDays: RETURN_WINDOW_DAYS.default,
        maxReturnRate: bpsToPercentText(RETURN_RATE_BPS.default),
      };

  const submit = async (v: FormValues) => {
    const deliveryModes = Object.fromEntries(
      Object.entries(v.deliveryModes ?? {}).filter(([, mode]) => mode),
    ) as Record<string, DeliveryMode>;
    const body = {
      legalName: v.legalName,
      licenceNumber: v.licenceNumber,
      contactName: v.contactName,
      contactPhone: v.contactPhone?.trim() || undefined,
      apiEndpoint: v.apiEndpoint?.trim() || null,
      dupCheckEndpoint: v.dupCheckEndpoint?.trim() || null,
      allowedHosts: v.allowedHosts.map((h) => h.trim().toLowerCase()).filter(Boolean),
      deliveryModes,
      status: v.status,
      statusQueryEndpoint: v.statusQueryEndpoint?.trim() || null,
      pollEnabled: v.pollEnabled,
      pollIntervalMinutes: v.pollIntervalMinutes,
      returnWindowDays: v.returnWindowDays,
      maxReturnRateBps: (() => {
        const read = returnRateBps(v.maxReturnRate);
        return 'bps' in read ? read.bps : undefined;
      })(),
    };
    try {
      if (partner) {
        await update.mutateAsync({ id: partner.id, body });
        onSaved();
      } else {
        onCreated(await create.mutateAsync({ ...body, code: v.code, contactPhone: v.contactPhone ?? '' }));
      }
    } catch (err) {
      // The API client shows the message; the field the server names (e.g. an endpoint refused by
      // ADR 019's address checks) is marked with the server's reason until it is edited.
      const marked = serverFieldErrors(err).flatMap((f) => {
        const name = formNameOf(f.field);
        return name === null ? [] : [{ name, errors: [f.message] }];
      });
      if (marked.length) form.setFields(marked);
    }
  };

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      disabled={!canEdit}
      onFinish={(v) => void submit(v)}
    >
      <Card title="机构信息" style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item
              name="code"
              label="机构编码"
              tooltip="创建后不可修改；用于回调请求头 X-LM-Partner"
              rules={[
                { required: true, message: '请填写机构编码' },
                { pattern: /^[a-z0-9-]{2,40}$/, message: '2-40位小写字母、数字或连字符' },
              ]}
            >
              <Input disabled={Boolean(partner)} placeholder="如 partner-x" />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <Form.Item
              name="legalName"
              label="法定名称"
              rules={[{ required: true, message: '请填写机构法定名称' }]}
            >
              <Input placeholder="营业执照上的全称" maxLength={100} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="licenceNumber"
              label="金融许可证 / 备案号"
              rules={[{ required: true, message: '请填写许可证或备案号' }]}
            >
              <Input maxLength={100} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="contactName"
              label="联系人"
              rules={[{ required: true, message: '请填写联系人' }]}
            >
              <Input maxLength={40} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="contactPhone"
              label="联系电话"
              tooltip="加密保存，只显示脱敏号码"
              rules={[
                { required: !partner, message: '请填写联系电话' },
                { pattern: CONTACT_PHONE_PATTERN, message: '联系电话格式不正确' },
              ]}
            >
              <Input placeholder={partner ? `${partner.contactPhoneMasked}（留空不修改）` : '手机或座机'} />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="status" label="合作状态">
              <Radio.Group
                options={[
                  { value: 'active', label: '合作中' },
                  { value: 'suspended', label: '已暂停（其全部产品停止匹配）' },
                ]}
              />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      <Card title="对接配置" style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="apiEndpoint"
              label="线索推送地址"
              tooltip="必须是公网 https 地址：不能指向本机、内网或云服务器元数据地址，也不会跟随重定向（开发环境另可用本服务的合作机构沙箱）"
              rules={ENDPOINT_RULES}
            >
              <Input placeholder="https://…/api/leads" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="dupCheckEndpoint" label="撞库查重地址（可选）" rules={ENDPOINT_RULES}>
              <Input placeholder="https://…/dup-check" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item
              name="allowedHosts"
              label="允许的域名"
              tooltip="产品跳转链接和联合登录地址只能在这些域名（含子域名）内"
            >
              <Select
                mode="tags"
                placeholder="输入域名后回车，如 partner.example.com"
                tokenSeparators={[',', ' ']}
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="statusQueryEndpoint"
              label="状态查询地址（可选）"
              tooltip="机构不主动回传结果、只提供状态查询接口时填写：系统按间隔签名查询近 30 天推送、尚无最终结果的线索，把应答记为机构反馈。地址规则同线索推送地址"
              rules={ENDPOINT_RULES}
            >
              <Input placeholder="https://…/lead-status" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="pollEnabled" label="开启状态轮询" valuePropName="checked">
              <Switch aria-label="开启状态轮询" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="pollIntervalMinutes"
              label="轮询间隔（分钟）"
              rules={[{ required: true, message: '请填写轮询间隔' }]}
            >
              <InputNumber
                aria-label="轮询间隔（分钟）"
                min={POLL_INTERVAL_MINUTES.min}
                max={POLL_INTERVAL_MINUTES.max}
                precision={0}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
          {partner?.pollLastAt && (
            <Col xs={24}>
              <Alert
                style={{ marginBottom: 16 }}
                type={partner.pollLastError ? 'warning' : 'success'}
                showIcon
                message={
                  partner.pollLastError
                    ? `上次状态查询 ${formatShanghai(partner.pollLastAt, 'second')} 失败：${partner.pollLastError}（到下个间隔会再查询）`
                    : `上次状态查询 ${formatShanghai(partner.pollLastAt, 'second')} 成功`
                }
              />
            </Col>
          )}
        </Row>
        <Typography.Text strong>线索退回</Typography.Text>
        <Row gutter={16} style={{ marginTop: 8 }}>
          <Col xs={12} md={6}>
            <Form.Item
              name="returnWindowDays"
              label="退回期限（天）"
              tooltip="线索推送后多少天内，机构可以通过签名接口退回（重复、手机号无效、不在服务区域、疑似欺诈、其他）"
              rules={[{ required: true, message: '请填写退回期限' }]}
            >
              <InputNumber
                aria-label="退回期限（天）"
                min={RETURN_WINDOW_DAYS.min}
                max={RETURN_WINDOW_DAYS.max}
                precision={0}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="maxReturnRate"
              label="每月最高退回率"
              tooltip="当月（北京时间）退回的线索（已退回 + 待审核）不超过当月推送给该机构线索数的这个比例；比例大于 0 时每月至少可退回 1 条，0% 表示不接受退回"
              rules={[
                { required: true, message: '请填写每月最高退回率' },
                {
                  validator: async (_: unknown, value: string | undefined) => {
                    const read = returnRateBps(value ?? '');
                    if ('problem' in read) throw new Error(read.problem);
                  },
                },
              ]}
            >
              <Input aria-label="每月最高退回率" suffix="%" placeholder="20" />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Text strong>按链接类型的推送方式</Typography.Text>
        <Row gutter={16} style={{ marginTop: 8 }}>
          {LINK_TYPES.map((t) => (
            <Col xs={12} md={8} key={t}>
              <Form.Item name={['deliveryModes', t]} label={`${t} ${LINK_TYPE_LABELS[Number(t)]}`}>
                <Select allowClear placeholder="未设置" options={MODE_OPTIONS} />
              </Form.Item>
            </Col>
          ))}
        </Row>
      </Card>
      {canEdit && (
        <Space>
          <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending}>
            {partner ? '保存修改' : '创建机构'}
          </Button>
        </Space>
      )}
    </Form>
  );
}
