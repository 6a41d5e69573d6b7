/**
 * The audit log as an operator reads it (issue 44.11): every action, subject and field the server writes
 * into `audit_log` has a Chinese label here, and every value is shown formatted — rates in %, money in ¥,
 * enumerations as their Chinese labels, times in Asia/Shanghai, region codes as place names. The console's
 * audit page uses it; `apps/server/test/audit-labels.test.ts` fails when the server writes an action,
 * subject or field this table does not name.
 */
import { AD_PLATFORM_LABELS } from './ad-clicks.ts';
import { LINK_TYPE_LABELS } from './channel.ts';
import {
  AD_REPORT_STATUS_LABELS,
  CONVERSION_STEP_LABELS,
  CONVERSION_STEPS,
  REPORT_STEP_LABELS,
} from './conversions.ts';
import {
  CHANNEL_COST_MODEL_LABELS,
  PARTY_TYPE_LABELS,
  RETURN_REASON_LABELS,
  RETURN_STATUS_LABELS,
} from './ledger.ts';
import { PRICE_MODEL_LABELS } from './prices.ts';
import { LEAD_STATUS_LABELS, NOTICE_KIND_LABELS, NOTICE_STATUS_LABELS } from './privacy-labels.ts';
import { regionText } from './regions.ts';

export { regionText };

import {
  COMPANY_TYPE_LABELS,
  CREDIT_RECORD_LABELS,
  DELIVERY_MODE_LABELS,
  INSTITUTION_TYPE_LABELS,
  JOB_LABELS,
  PARTNER_STATUS_LABELS,
  PRODUCT_STATUS_LABELS,
  SESAME_LABELS,
} from './schemas/admin-catalog.ts';
import { channelFlagText } from './schemas/admin-channels.ts';
import { SHAREABLE_FIELD_LABELS } from './schemas/matching.ts';
import { formatShanghai } from './time.ts';

/** What an entry did (`audit_log.action`). */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  create: '新建',
  update: '修改',
  status: '状态变更',
  reveal: '查看明文',
  retry: '重新发送',
  discard: '放弃发送',
  'rotate-secret': '轮换密钥',
  'reset-password': '重置密码',
  delete: '删除',
  'login-lock': '登录锁定',
  'bind-wechat': '绑定微信',
  reconcile: '对账',
  replay: '重新回传',
  'ad-reporting': '广告效果回传（本人异议）',
  close: '关账',
  accept: '接受',
  reject: '驳回',
  import: '导入',
};

/** What an entry is about (`audit_log.entity`). */
export const AUDIT_ENTITY_LABELS: Record<string, string> = {
  channel: '渠道',
  route_code: '路由码',
  partner: '机构',
  product: '产品',
  lead: '线索',
  user: '用户',
  staff: '员工',
  notice: '机构通知',
  operator: '运营主体',
  channel_conversions: '渠道转化回传',
  ad_report: '转化回传记录',
  product_price: '产品线索价格',
  channel_cost: '渠道成本',
  spend_import: '消耗导入',
  month_close: '月度关账',
  ledger_adjustment: '手工调整',
  ledger_payout: '结算付款',
  lead_return: '线索退回',
};

/** The staff name of entries made by the server itself (login locks, the worker). */
export const AUDIT_SYSTEM_ACTOR = 'system';

/** Personal-data fields a reveal names (`after.field`). */
export const REVEAL_FIELD_LABELS: Record<string, string> = {
  mobile: '手机号',
  realName: '真实姓名',
  identity: '身份证号',
  contacts: '紧急联系人',
  upload: '上传的图片',
};

export const STAFF_ROLE_LABELS: Record<string, string> = {
  admin: '管理员',
  operator: '运营',
  viewer: '只读',
  channel_partner: '渠道合作方',
};

/** Field names of the snapshots the server writes (channels, route codes, partners, products, staff, leads, notices). */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  id: '编号',
  createdAt: '创建时间',
  updatedAt: '更新时间',
  status: '状态',
  code: '编码',
  name: '名称',
  // channels and route codes
  adChannelCode: '渠道码',
  channelStatus: '渠道状态',
  linkType: '链接类型',
  flags: '皮肤与功能标记',
  skinArms: 'A/B 皮肤分流',
  excludeCityCodes: '不服务的城市',
  planTargetUrl: '计划落地页',
  pageTitle: '页面标题',
  pageIcon: '页面图标',
  needsLocation: '登录后获取定位',
  trackReport: '广告平台回传',
  allowedHosts: '允许跳转的域名',
  footer: '页脚备案主体',
  operatorCode: '运营主体',
  // a channel's conversion reporting (issue 47.2)
  enabled: '开启回传',
  platform: '广告平台',
  windowDays: '归因窗口',
  events: '事件映射',
  credentialsChanged: '修改的凭据',
  // a conversion report replayed (issue 47.3)
  step: '回传步骤',
  eventCode: '事件编码',
  // a lender's reconciliation (issue 47.4): the run's counts
  periodFrom: '文件覆盖的推送起始日',
  periodTo: '文件覆盖的推送截止日',
  rowsRead: '读取行数',
  matched: '一致',
  disagreements: '不一致合计',
  unknownLead: '未知线索',
  statusDiffers: '状态不一致',
  amountDiffers: '金额不一致',
  missingInFile: '文件中缺少',
  badRows: '无法读取的行',
  // operators (ADR 057)
  companyName: '公司名称',
  shortName: '协议简称',
  filingNumber: '备案号',
  smsSignature: '短信签名',
  address: '注册地址',
  servicePhone: '客服电话',
  email: '个人信息保护邮箱',
  routeCode: '路由码',
  // partners
  legalName: '法定名称',
  licenceNumber: '金融许可证 / 备案号',
  contactName: '联系人',
  contactPhoneEnc: '联系电话（加密保存）',
  contactPhoneMasked: '联系电话',
  apiEndpoint: '线索推送地址',
  dupCheckEndpoint: '撞库查重地址',
  signingSecretEnc: '签名密钥',
  previousSigningSecretEnc: '上一个签名密钥',
  secretRotatedAt: '密钥轮换时间',
  hadSecret: '原有签名密钥',
  previousSecretValidUntil: '旧密钥回调有效期至',
  deliveryModes: '按链接类型的推送方式',
  // a lender's status polling (issue 47.4)
  statusQueryEndpoint: '状态查询地址',
  pollEnabled: '开启状态轮询',
  pollIntervalMinutes: '轮询间隔',
  pollNextAt: '下次轮询时间',
  pollLastAt: '上次轮询时间',
  pollLastError: '上次轮询失败原因',
  // products
  partnerId: '合作机构编号',
  productName: '产品名称',
  companyType: '机构类别',
  institutionType: '机构类型',
  thirdpartyType: '第三方类型',
  partnerProductName: '合作方产品名称',
  amountMinFen: '最低额度',
  amountMaxFen: '最高额度',
  termMinMonths: '最短期限',
  termMaxMonths: '最长期限',
  aprBps: '综合年化利率',
  targetUrl: '跳转链接',
  rules: '准入规则',
  dailyCap: '每日上限',
  totalCap: '总上限',
  priority: '优先级',
  priceFen: '单价',
  activeHours: '营业时段',
  sharedFields: '共享字段',
  // a channel's cost and a spend import (issue 48.2)
  channelId: '渠道编号',
  fileName: '文件名',
  rowsTotal: '数据行数',
  rowsImported: '导入行数',
  rowsRejected: '拒绝行数',
  totalFen: '消耗合计',
  entriesBooked: '记账条数',
  bookedFen: '本次记账金额',
  // a product's lead prices (issue 48.1)
  productId: '产品编号',
  model: '计价方式',
  effectiveFrom: '生效日期',
  // statements, adjustments and payouts (issue 48.5)
  partyType: '对象类型',
  partyCode: '对象编码',
  partyName: '对象名称',
  // lead returns (issue 48.4)
  returnWindowDays: '退回期限',
  maxReturnRateBps: '每月最高退回率',
  leadId: '线索编号',
  disputeReason: '待审核原因',
  reviewNote: '审核说明',
  reversedFen: '冲减金额',
  // staff
  mobile: '手机号',
  role: '角色',
  channelCodes: '可查看的渠道',
  loginMethods: '登录方式',
  generated: '由系统生成新密码',
  scope: '锁定范围',
  failures: '密码错误次数',
  lockMinutes: '锁定时长',
  openid: '微信账号',
  boundAt: '绑定时间',
  // leads, notices, reveals
  attempts: '已发送次数',
  lastError: '最近一次失败原因',
  bulk: '批量操作',
  kind: '通知类型',
  field: '查看的字段',
  // a person's objection to conversion reporting (隐私政策 第六条)
  adReportingObjectedAt: '停止广告效果回传的时间',
  folder: '文件夹',
  dir: '文件路径',
};

/** A field whose name means something narrower for one kind of subject. */
const ENTITY_FIELD_LABELS: Record<string, Record<string, string>> = {
  channel: { name: '渠道名称' },
  operator: { code: '主体编码' },
  route_code: { status: '路由码状态' },
  partner: { code: '机构编码', status: '合作状态', allowedHosts: '允许的域名' },
  product: { code: '产品编码', status: '上架状态' },
  staff: { name: '姓名', status: '账号状态' },
  lead: { status: '发送状态' },
  notice: { status: '通知状态' },
  ad_report: { status: '回传状态', attempts: '已尝试次数' },
  product_price: { amountFen: '每条线索价格', bps: '放款金额分成比例' },
  channel_cost: { amountFen: '计费单价', bps: '线索收入分成比例', model: '计费方式' },
  month_close: { month: '关账月份' },
  ledger_adjustment: { month: '记账月份', amountFen: '调整金额', reason: '调整原因' },
  ledger_payout: { month: '记账月份', amountFen: '付款金额', note: '付款说明' },
  lead_return: { status: '退回状态', reason: '退回原因' },
};

/** The Chinese label of `key` in a snapshot of `entity`; an unknown key stays visible as it is. */
export function auditFieldLabel(entity: string, key: string): string {
  return ENTITY_FIELD_LABELS[entity]?.[key] ?? AUDIT_FIELD_LABELS[key] ?? key;
}

const STATUS_LABELS: Record<string, Record<string, string>> = {
  product: PRODUCT_STATUS_LABELS,
  partner: PARTNER_STATUS_LABELS,
  staff: { active: '正常', disabled: '已停用' },
  lead: LEAD_STATUS_LABELS,
  notice: NOTICE_STATUS_LABELS,
  ad_report: AD_REPORT_STATUS_LABELS,
  lead_return: RETURN_STATUS_LABELS,
  route_code: { '1': '启用', '0': '停用' },
};

const ON_OFF: Record<string, string> = { '1': '启用', '0': '停用' };
const LOGIN_METHOD_LABELS: Record<string, string> = {
  'password+sms': '密码或短信验证码',
  sms: '仅短信验证码',
};
const LOCK_SCOPE_LABELS: Record<string, string> = { address: '同一网络', account: '所有网络' };

/** The audit log writes secrets and encrypted values as this (modules/audit/service.ts). */
const HIDDEN = '***';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const YUAN = new Intl.NumberFormat('zh-CN', { style: 'currency', currency: 'CNY' });

/** Integer fen as yuan: 500000 → "¥5,000.00". */
export function fenText(fen: number): string {
  return YUAN.format(fen / 100);
}

/** Basis points as a rate: 1800 → "18.00%". */
export function bpsText(bps: number): string {
  return `${(bps / 100).toFixed(2)}%`;
}

const list = (items: readonly string[], empty = '无') => (items.length ? items.join('、') : empty);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const labelled = (labels: Record<string, string>, v: unknown) => labels[String(v)] ?? String(v);

/** A product's eligibility rules (the matching engine's ProductRules) in one line. */
export function productRulesText(value: unknown): string {
  const r = record(value);
  const parts: string[] = [];
  const cities = (key: string) => strings(r[key]).map(regionText);
  if (strings(r.citiesIn).length) parts.push(`只服务：${list(cities('citiesIn'))}`);
  if (strings(r.citiesOut).length) parts.push(`不服务：${list(cities('citiesOut'))}`);
  const age = (v: unknown) => (typeof v === 'number' ? String(v) : '');
  if (r.ageMin !== undefined || r.ageMax !== undefined)
    parts.push(`年龄 ${age(r.ageMin) || '不限'}–${age(r.ageMax) || '不限'} 岁`);
  const money = (v: unknown) => (typeof v === 'number' ? fenText(v) : '不限');
  if (r.amountMinFen !== undefined || r.amountMaxFen !== undefined)
    parts.push(`申请金额 ${money(r.amountMinFen)}–${money(r.amountMaxFen)}`);
  if (strings(r.jobs).length)
    parts.push(`职业：${list(strings(r.jobs).map((j) => labelled(JOB_LABELS, j)))}`);
  const needs: [string, string][] = [
    ['requireSocialSecurity', '须有社保'],
    ['requireHousingFund', '须有公积金'],
    ['requireInsurance', '须有商业保险'],
    ['requireHouse', '须有房产'],
    ['requireCar', '须有车产'],
  ];
  for (const [key, text] of needs) if (r[key] === true) parts.push(text);
  if (typeof r.sesameMin === 'string') parts.push(`芝麻分至少 ${labelled(SESAME_LABELS, r.sesameMin)}`);
  if (strings(r.creditRecord).length)
    parts.push(`信用记录：${list(strings(r.creditRecord).map((c) => labelled(CREDIT_RECORD_LABELS, c)))}`);
  return parts.length ? parts.join('；') : '不限';
}

/** A channel's event map (issue 47.2) in one line: each step that is on, its event code and conditions. */
export function eventMapText(value: unknown): string {
  const map = record(value);
  const parts: string[] = [];
  for (const step of CONVERSION_STEPS) {
    const e = record(map[step]);
    if (e.enabled !== true) continue;
    const conds: string[] = [];
    if (e.firstOnly === true) conds.push('仅首次');
    if (typeof e.minAmountFen === 'number') conds.push(`不低于 ${fenText(e.minAmountFen)}`);
    if (e.sendValue === true) conds.push('回传金额');
    parts.push(
      `${CONVERSION_STEP_LABELS[step]} ${String(e.eventCode ?? '')}${conds.length ? `（${conds.join('，')}）` : ''}`,
    );
  }
  return list(parts, '不回传任何事件');
}

/** The text of one field's value in a snapshot of `entity` (undefined: the field is absent → ""). */
export function auditValueText(entity: string, key: string, value: unknown): string {
  if (value === undefined) return '';
  if (value === HIDDEN) return '（已隐藏）';
  if (value === null) {
    if (key === 'dailyCap' || key === 'totalCap') return '不限';
    if (key === 'activeHours') return '全天';
    if (key === 'aprBps') return '未填写';
    if (key === 'skinArms') return '不分流';
    if (key === 'trackReport') return '不回传';
    if (key === 'adReportingObjectedAt') return '正常回传';
    return '—';
  }
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'string' && ISO_INSTANT.test(value)) return formatShanghai(value, 'second');
  if (typeof value === 'number') {
    if (key.endsWith('Bps') || key === 'bps') return bpsText(value);
    if (key.endsWith('Fen')) return fenText(value);
    if (key.endsWith('Months')) return `${value} 个月`;
    if (key === 'lockMinutes' || key === 'pollIntervalMinutes') return `${value} 分钟`;
    if (key === 'failures' || key === 'attempts') return `${value} 次`;
  }
  switch (key) {
    case 'status':
      return STATUS_LABELS[entity] ? labelled(STATUS_LABELS[entity], value) : String(value);
    case 'channelStatus':
      return labelled(ON_OFF, value);
    case 'linkType':
      return `${String(value)} ${LINK_TYPE_LABELS[Number(value)] ?? ''}`.trim();
    case 'companyType':
      return labelled(COMPANY_TYPE_LABELS, value);
    case 'institutionType':
      return labelled(INSTITUTION_TYPE_LABELS, value);
    case 'kind':
      return labelled(NOTICE_KIND_LABELS, value);
    case 'role':
      return labelled(STAFF_ROLE_LABELS, value);
    case 'loginMethods':
      return labelled(LOGIN_METHOD_LABELS, value);
    case 'scope':
      return labelled(LOCK_SCOPE_LABELS, value);
    case 'field':
      return labelled(REVEAL_FIELD_LABELS, value);
    case 'flags':
      return list(String(value).split('-').filter(Boolean).map(channelFlagText));
    case 'skinArms':
      return list(
        (Array.isArray(value) ? value : []).map((a) => {
          const arm = record(a);
          return `皮肤${String(arm.skin)}（权重 ${String(arm.weight)}）`;
        }),
        '不分流',
      );
    case 'platform':
      return labelled(AD_PLATFORM_LABELS, value);
    case 'partyType':
      return labelled(PARTY_TYPE_LABELS, value);
    case 'model':
      return labelled(entity === 'channel_cost' ? CHANNEL_COST_MODEL_LABELS : PRICE_MODEL_LABELS, value);
    case 'windowDays':
    case 'returnWindowDays':
      return `${String(value)} 天`;
    case 'reason':
      return entity === 'lead_return' ? labelled(RETURN_REASON_LABELS, value) : String(value);
    case 'events':
      return eventMapText(value);
    case 'step':
      return labelled(REPORT_STEP_LABELS, value);
    case 'credentialsChanged':
      return list(strings(value));
    case 'excludeCityCodes':
      return list(strings(value).map(regionText));
    case 'trackReport': {
      const t = record(value);
      return `${String(t.platform ?? '')}：${list(strings(t.params))}`;
    }
    case 'footer':
      return list(
        (Array.isArray(value) ? value : []).map((f) => {
          const c = record(f);
          return `${String(c.companyName ?? '')}（${String(c.filingNumber ?? '')}）`;
        }),
      );
    case 'deliveryModes':
      return list(
        Object.entries(record(value))
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(
            ([type, mode]) =>
              `${type} ${LINK_TYPE_LABELS[Number(type)] ?? ''}：${labelled(DELIVERY_MODE_LABELS, mode)}`,
          ),
        '未设置',
      );
    case 'sharedFields':
      return list([
        ...new Set(strings(value).map((f) => labelled(SHAREABLE_FIELD_LABELS as Record<string, string>, f))),
      ]);
    case 'rules':
      return productRulesText(value);
    case 'activeHours': {
      const h = record(value);
      return `${String(h.from)}–${String(h.to)}`;
    }
  }
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
    return list(value.map(String));
  return JSON.stringify(value);
}
