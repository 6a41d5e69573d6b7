import { REGIONS } from '@lm/shared/regions';
import {
  COMPANY_TYPE_LABELS,
  CREDIT_RECORD_LABELS,
  CREDIT_RECORDS,
  INSTITUTION_TYPE_LABELS,
  JOB_LABELS,
  JOBS,
  LINK_TYPE_LABELS,
  type ProductBody,
  type ProductDetail,
  type ProductRulesInput,
  SESAME_BANDS,
  SESAME_LABELS,
} from '@lm/shared/schemas/admin-catalog';
import { SHAREABLE_FIELD_LABELS } from '@lm/shared/schemas/matching';
import { HHMM_PATTERN } from '@lm/shared/time';
import {
  Button,
  Card,
  Cascader,
  Checkbox,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { usePartnerOptions } from '../api/get-partner-options';
import { bpsToPercent, codesToPaths, fenToYuan, pathsToCodes, percentToBps, yuanToFen } from '../format';

type Path = (string | number)[];

export interface ProductFormValues {
  code: string;
  partnerId: number;
  productName: string;
  companyType: 'KAInstitution' | 'RegionInstitution';
  institutionType: 1 | 2 | 3 | 4;
  linkType: number;
  thirdpartyType: number;
  partnerProductName?: string;
  amountMinYuan: number;
  amountMaxYuan: number;
  termMinMonths: number;
  termMaxMonths: number;
  aprPercent: number | null;
  targetUrl?: string;
  dailyCap: number | null;
  totalCap: number | null;
  priority: number;
  priceYuan: number;
  allDay: boolean;
  hoursFrom?: string;
  hoursTo?: string;
  sharedFields: string[];
  rules: {
    citiesIn: Path[];
    citiesOut: Path[];
    ageMin: number | null;
    ageMax: number | null;
    amountMinYuan: number | null;
    amountMaxYuan: number | null;
    jobs: string[];
    require: string[];
    sesameMin?: string;
    creditRecord: string[];
  };
}

const REQUIREMENTS = [
  { value: 'requireSocialSecurity', label: '须有社保' },
  { value: 'requireHousingFund', label: '须有公积金' },
  { value: 'requireInsurance', label: '须有商业保险' },
  { value: 'requireHouse', label: '须有房产' },
  { value: 'requireCar', label: '须有车产' },
] as const;

const options = <K extends string>(labels: Record<K, string>, keys: readonly K[]) =>
  keys.map((k) => ({ value: k, label: labels[k] }));

/** The form's values of a stored product (money in yuan, APR in %). */
export function toFormValues(p: ProductDetail | null): Partial<ProductFormValues> {
  if (!p) {
    return {
      companyType: 'KAInstitution',
      institutionType: 1,
      linkType: 2,
      thirdpartyType: 0,
      termMinMonths: 3,
      termMaxMonths: 12,
      priority: 50,
      priceYuan: 30,
      aprPercent: null,
      dailyCap: null,
      totalCap: null,
      allDay: true,
      sharedFields: ['realName', 'mobile', 'identity', 'workCityCode', 'applyLimit'],
      rules: {
        citiesIn: [],
        citiesOut: [],
        ageMin: null,
        ageMax: null,
        amountMinYuan: null,
        amountMaxYuan: null,
        jobs: [],
        require: [],
        creditRecord: [],
      },
    };
  }
  const r = p.rules as ProductRulesInput;
  return {
    code: p.code,
    partnerId: p.partnerId,
    productName: p.productName,
    companyType: p.companyType,
    institutionType: p.institutionType as 1 | 2 | 3 | 4,
    linkType: p.linkType,
    thirdpartyType: p.thirdpartyType,
    partnerProductName: p.partnerProductName ?? undefined,
    amountMinYuan: fenToYuan(p.amountMinFen) ?? 0,
    amountMaxYuan: fenToYuan(p.amountMaxFen) ?? 0,
    termMinMonths: p.termMinMonths,
    termMaxMonths: p.termMaxMonths,
    aprPercent: bpsToPercent(p.aprBps),
    targetUrl: p.targetUrl ?? undefined,
    dailyCap: p.dailyCap,
    totalCap: p.totalCap,
    priority: p.priority,
    priceYuan: fenToYuan(p.priceFen) ?? 0,
    allDay: !p.activeHours,
    hoursFrom: p.activeHours?.from,
    hoursTo: p.activeHours?.to,
    sharedFields: p.sharedFields,
    rules: {
      citiesIn: codesToPaths(r.citiesIn),
      citiesOut: codesToPaths(r.citiesOut),
      ageMin: r.ageMin ?? null,
      ageMax: r.ageMax ?? null,
      amountMinYuan: fenToYuan(r.amountMinFen),
      amountMaxYuan: fenToYuan(r.amountMaxFen),
      jobs: r.jobs ?? [],
      require: REQUIREMENTS.filter((q) => r[q.value]).map((q) => q.value),
      sesameMin: r.sesameMin,
      creditRecord: r.creditRecord ?? [],
    },
  };
}

/** The API body of the form's values (fen, bps; empty rules left out). */
export function toBody(v: ProductFormValues): ProductBody {
  const r = v.rules;
  const rules: ProductRulesInput = {};
  if (r.citiesIn?.length) rules.citiesIn = pathsToCodes(r.citiesIn);
  if (r.citiesOut?.length) rules.citiesOut = pathsToCodes(r.citiesOut);
  if (r.ageMin !== null && r.ageMin !== undefined) rules.ageMin = r.ageMin;
  if (r.ageMax !== null && r.ageMax !== undefined) rules.ageMax = r.ageMax;
  const amin = yuanToFen(r.amountMinYuan);
  const amax = yuanToFen(r.amountMaxYuan);
  if (amin !== null) rules.amountMinFen = amin;
  if (amax !== null) rules.amountMaxFen = amax;
  if (r.jobs?.length) rules.jobs = r.jobs as ProductRulesInput['jobs'];
  for (const q of r.require ?? []) rules[q as (typeof REQUIREMENTS)[number]['value']] = true;
  if (r.sesameMin) rules.sesameMin = r.sesameMin as ProductRulesInput['sesameMin'];
  if (r.creditRecord?.length) rules.creditRecord = r.creditRecord as ProductRulesInput['creditRecord'];
  return {
    partnerId: v.partnerId,
    productName: v.productName,
    companyType: v.companyType,
    institutionType: v.institutionType,
    thirdpartyType: v.thirdpartyType ?? 0,
    partnerProductName: v.partnerProductName?.trim() || null,
    linkType: v.linkType,
    amountMinFen: yuanToFen(v.amountMinYuan) ?? 0,
    amountMaxFen: yuanToFen(v.amountMaxYuan) ?? 0,
    termMinMonths: v.termMinMonths,
    termMaxMonths: v.termMaxMonths,
    aprBps: percentToBps(v.aprPercent),
    targetUrl: v.targetUrl?.trim() || null,
    rules,
    dailyCap: v.dailyCap ?? null,
    totalCap: v.totalCap ?? null,
    priority: v.priority ?? 0,
    priceFen: yuanToFen(v.priceYuan) ?? 0,
    activeHours: v.allDay || !v.hoursFrom || !v.hoursTo ? null : { from: v.hoursFrom, to: v.hoursTo },
    sharedFields: v.sharedFields as ProductBody['sharedFields'],
  };
}

export interface ProductFormProps {
  product: ProductDetail | null;
  canEdit: boolean;
  saving: boolean;
  onSubmit: (values: ProductFormValues) => void;
}

/** Create or edit a product: terms, APR (in %), caps, price, active hours, shared fields and the rules editor. */
export function ProductForm({ product, canEdit, saving, onSubmit }: ProductFormProps) {
  const [form] = Form.useForm<ProductFormValues>();
  const partners = usePartnerOptions();
  const partnerId = Form.useWatch('partnerId', form);
  const allDay = Form.useWatch('allDay', form);
  const hosts = partners.data?.find((p) => p.id === partnerId)?.allowedHosts ?? [];
  const cityPicker = (
    <Cascader
      options={REGIONS}
      multiple
      showCheckedStrategy={Cascader.SHOW_PARENT}
      showSearch={{ filter: (input, path) => path.some((o) => String(o.label).includes(input)) }}
      placeholder="选择省份或城市（选整个省即全省）"
      maxTagCount="responsive"
    />
  );

  return (
    <Form<ProductFormValues>
      form={form}
      layout="vertical"
      initialValues={toFormValues(product)}
      disabled={!canEdit}
      onFinish={onSubmit}
      scrollToFirstError
    >
      <Card title="基本信息" style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={6}>
            <Form.Item
              name="code"
              label="产品编码"
              rules={[
                { required: true, message: '请填写产品编码' },
                { pattern: /^[a-z0-9-]{2,40}$/, message: '2-40位小写字母、数字或连字符' },
              ]}
            >
              <Input disabled={Boolean(product)} placeholder="如 x-xinyongdai" />
            </Form.Item>
          </Col>
          <Col xs={24} md={9}>
            <Form.Item
              name="productName"
              label="产品名称"
              rules={[{ required: true, message: '请填写产品名称' }]}
            >
              <Input maxLength={40} />
            </Form.Item>
          </Col>
          <Col xs={24} md={9}>
            <Form.Item
              name="partnerId"
              label="放款机构"
              rules={[{ required: true, message: '请选择放款机构' }]}
            >
              <Select
                showSearch
                optionFilterProp="label"
                loading={partners.isLoading}
                placeholder={partners.isError ? '机构列表加载失败' : '选择机构'}
                options={(partners.data ?? []).map((p) => ({
                  value: p.id,
                  label: p.status === 'active' ? p.legalName : `${p.legalName}（已暂停）`,
                }))}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="companyType" label="机构类别">
              <Select
                options={Object.entries(COMPANY_TYPE_LABELS).map(([value, label]) => ({ value, label }))}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="institutionType" label="机构类型">
              <Select
                options={Object.entries(INSTITUTION_TYPE_LABELS).map(([value, label]) => ({
                  value: Number(value),
                  label: `${value} ${label}`,
                }))}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="linkType" label="链接类型">
              <Select
                options={Object.entries(LINK_TYPE_LABELS).map(([value, label]) => ({
                  value: Number(value),
                  label: `${value} ${label}`,
                }))}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={3}>
            <Form.Item name="thirdpartyType" label="第三方类型" tooltip="7 = 全流程合作产品">
              <InputNumber min={0} max={99} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={3}>
            <Form.Item name="partnerProductName" label="合作方产品名">
              <Input maxLength={40} />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item
              name="targetUrl"
              label="跳转链接"
              tooltip="H5跳转类产品必填；域名须在机构允许的域名内"
              extra={hosts.length ? `允许的域名：${hosts.join('、')}` : '该机构尚未配置允许的域名'}
              rules={[{ type: 'url', message: '不是有效的网址' }]}
            >
              <Input placeholder="https://…" />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title="额度、期限与价格" style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={12} md={6}>
            <Form.Item
              name="amountMinYuan"
              label="最低额度（元）"
              rules={[{ required: true, message: '请填写' }]}
            >
              <InputNumber min={0.01} precision={2} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="amountMaxYuan"
              label="最高额度（元）"
              dependencies={['amountMinYuan']}
              rules={[
                { required: true, message: '请填写' },
                ({ getFieldValue }) => ({
                  validator: (_, v) =>
                    v === undefined || v === null || v >= (getFieldValue('amountMinYuan') ?? 0)
                      ? Promise.resolve()
                      : Promise.reject(new Error('最高额度不能低于最低额度')),
                }),
              ]}
            >
              <InputNumber min={0.01} precision={2} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="termMinMonths"
              label="最短期限（月）"
              rules={[{ required: true, message: '请填写' }]}
            >
              <InputNumber min={1} max={360} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="termMaxMonths"
              label="最长期限（月）"
              rules={[{ required: true, message: '请填写' }]}
            >
              <InputNumber min={1} max={360} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="aprPercent"
              label="综合年化利率（%）"
              tooltip="含全部费用；超过 24% 不能上架"
              extra="以基点保存（18% = 1800）"
            >
              <InputNumber
                min={0}
                max={1000}
                precision={2}
                step={0.5}
                addonAfter="%"
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="priceYuan"
              label="排序单价（元）"
              tooltip="只用于产品排序（优先级相同时单价高者优先）；机构实际结算的价格在「线索价格」中按生效日期设置"
            >
              <InputNumber min={0} precision={2} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="priority" label="优先级" tooltip="越大越靠前；相同时单价高者优先">
              <InputNumber min={0} max={1000} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title="名额与营业时段" style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={12} md={6}>
            <Form.Item name="dailyCap" label="每日上限" extra="留空为不限（按上海自然日）">
              <InputNumber min={0} precision={0} placeholder="不限" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="totalCap" label="总上限" extra="留空为不限">
              <InputNumber min={0} precision={0} placeholder="不限" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={4}>
            <Form.Item name="allDay" label="全天营业" valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          {!allDay && (
            <>
              <Col xs={12} md={4}>
                <Form.Item
                  name="hoursFrom"
                  label="开始（上海时间）"
                  rules={[{ required: true, pattern: HHMM_PATTERN, message: '格式为 HH:MM' }]}
                >
                  <Input placeholder="09:00" />
                </Form.Item>
              </Col>
              <Col xs={12} md={4}>
                <Form.Item
                  name="hoursTo"
                  label="结束（不含）"
                  rules={[{ required: true, pattern: HHMM_PATTERN, message: '格式为 HH:MM' }]}
                  extra="结束早于开始即跨零点"
                >
                  <Input placeholder="21:00" />
                </Form.Item>
              </Col>
            </>
          )}
        </Row>
      </Card>

      <Card title="准入规则" style={{ marginBottom: 16 }}>
        <Typography.Paragraph type="secondary">
          未设置的规则不做限制。所有边界都包含在内。保存后可在「规则测试」中用样例资料验证。
        </Typography.Paragraph>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name={['rules', 'citiesIn']} label="服务城市（只服务这些）">
              {cityPicker}
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name={['rules', 'citiesOut']} label="不服务的城市（优先于服务城市）">
              {cityPicker}
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name={['rules', 'ageMin']} label="最低年龄">
              <InputNumber min={16} max={100} precision={0} placeholder="不限" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name={['rules', 'ageMax']} label="最高年龄">
              <InputNumber min={16} max={100} precision={0} placeholder="不限" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name={['rules', 'amountMinYuan']}
              label="申请金额下限（元）"
              tooltip="按用户所选额度档的中间值比较"
            >
              <InputNumber min={0} precision={2} placeholder="不限" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name={['rules', 'amountMaxYuan']} label="申请金额上限（元）">
              <InputNumber min={0} precision={2} placeholder="不限" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['rules', 'jobs']} label="接受的职业">
              <Select mode="multiple" allowClear placeholder="不限" options={options(JOB_LABELS, JOBS)} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['rules', 'sesameMin']} label="芝麻分不低于">
              <Select allowClear placeholder="不限" options={options(SESAME_LABELS, SESAME_BANDS)} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['rules', 'creditRecord']} label="接受的信用记录">
              <Select
                mode="multiple"
                allowClear
                placeholder="不限"
                options={options(CREDIT_RECORD_LABELS, CREDIT_RECORDS)}
              />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name={['rules', 'require']} label="资质要求">
              <Checkbox.Group options={REQUIREMENTS.map((r) => ({ value: r.value, label: r.label }))} />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title="共享给机构的字段" style={{ marginBottom: 16 }}>
        <Form.Item name="sharedFields" extra="用户在授权页看到并同意的字段；只推送这些字段">
          <Checkbox.Group
            options={Object.entries(SHAREABLE_FIELD_LABELS).map(([value, label]) => ({
              value,
              label: value === 'workCityCode' ? '工作城市编码' : label,
            }))}
          />
        </Form.Item>
      </Card>

      {canEdit && (
        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>
            {product ? '保存修改' : '创建产品（草稿）'}
          </Button>
        </Space>
      )}
    </Form>
  );
}
