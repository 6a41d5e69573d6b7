import { z } from 'zod';
import { FUNNEL_STEPS, THEMES } from '../channel.ts';
import { channelCodeSchema } from './common.ts';

/** An empty query value (`?fingerprint=`) counts as absent. */
const emptyAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** Route code of an ad link (`?adRouteCode=`), exchanged for a channel code. */
export const routeCodeSchema = z
  .string({ error: (iss) => (iss.input === undefined ? '路由码不能为空' : '路由码必须是文本') })
  .trim()
  .min(1, '路由码不能为空')
  .max(64, '路由码最长64个字符')
  .regex(/^[A-Za-z0-9_.-]+$/, '路由码只能包含字母、数字、下划线、点和短横线');

/** Device fingerprint (FingerprintJS visitorId or similar). Stored only as a keyed hash. */
export const fingerprintSchema = z
  .string({ error: '设备指纹必须是文本' })
  .trim()
  .min(1, '设备指纹不能为空')
  .max(128, '设备指纹最长128个字符')
  .regex(/^[A-Za-z0-9_.:-]+$/, '设备指纹只能包含字母、数字、下划线、点、冒号和短横线');

/** The H5's analytics session id. */
export const sessionIdSchema = z
  .string({ error: '会话编号 sessionId 必须是文本' })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, '会话编号 sessionId 为8到64位字母、数字、下划线或短横线');

/** Behaviour code: a timestamp plus random digits. */
export const behaviorCodeSchema = z
  .string({ error: '行为码 behaviorCode 必须是文本' })
  .regex(/^\d{1,20}$/, '行为码 behaviorCode 为1到20位数字');

export const funnelStepSchema = z.enum(FUNNEL_STEPS, {
  error: `事件步骤 step 必须是 ${FUNNEL_STEPS.join('、')} 之一`,
});

/**
 * The query of a public call an ad link reaches (h5Config, the click report, the channel's detail, plan and
 * route-code exchange): what it names, and any other parameter ignored — an ad platform appends its own
 * (`clickid`, `callback` …) to the link. Every other API call refuses a parameter it does not name (400;
 * apps/server/src/plugins/app/query-rules.ts), and the API document says which calls are which.
 */
export const adLinkQuery = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

/** GET /api/getAdChannel and GET /api/adChannel/plan/adChannelCode */
export const adChannelQuery = adLinkQuery({ adChannelCode: channelCodeSchema });

/** GET /api/adChannel/exchange/adChannelCode */
export const exchangeRouteCodeQuery = adLinkQuery({ adRouteCode: routeCodeSchema });

/**
 * The channel keys of an H5 page address (`/?adChannelCode=…`, `/login?source=…`, `/?adRouteCode=…`) that
 * the server renders in the channel's skin (issue 17.1). A page address is never refused: a value that
 * does not parse means the page is served as the app renders it (the app shows what it makes of it).
 */
export const channelPageQuery = z.object({
  adChannelCode: z.preprocess(emptyAsAbsent, channelCodeSchema.optional()),
  source: z.preprocess(emptyAsAbsent, channelCodeSchema.optional()),
  apiChannelCode: z.preprocess(emptyAsAbsent, channelCodeSchema.optional()),
  adRouteCode: z.preprocess(emptyAsAbsent, routeCodeSchema.optional()),
});

/** GET /api/adChannel/h5Config: without a code (or with an unknown one) the default configuration. */
export const h5ConfigQuery = adLinkQuery({
  adChannelCode: z.preprocess(emptyAsAbsent, channelCodeSchema.optional()),
});

/** Skin number of a click (a query value, so text): 0–999. */
const queryAbTestTypeSchema = z
  .string({ error: 'abTestType 必须是数字' })
  .regex(/^\d{1,3}$/, 'abTestType 必须是0到999的整数')
  .transform((v) => Number(v));

/** GET /api/reportAdChannelClick */
export const reportClickQuery = adLinkQuery({
  adChannelCode: channelCodeSchema,
  fingerprint: z.preprocess(emptyAsAbsent, fingerprintSchema.optional()),
  abTestType: z.preprocess(emptyAsAbsent, queryAbTestTypeSchema.optional()),
});

/** POST /api/report/event */
export const reportEventBody = z.object({
  step: funnelStepSchema,
  sessionId: sessionIdSchema,
  adChannelCode: channelCodeSchema.optional(),
  skin: z
    .number({ error: '皮肤编号 skin 必须是整数' })
    .int('皮肤编号 skin 必须是整数')
    .min(0, '皮肤编号 skin 超出范围')
    .max(999, '皮肤编号 skin 超出范围')
    .optional(),
  fingerprint: fingerprintSchema.optional(),
  behaviorCode: behaviorCodeSchema.optional(),
  source: z.literal('H5', { error: '来源 source 只能是 H5' }).optional(),
});
export type ReportClickQuery = z.infer<typeof reportClickQuery>;
export type ReportEventBody = z.infer<typeof reportEventBody>;

/** Channel detail (spec §3). */
export const channelDetailData = z.object({
  adChannelCode: z.string(),
  channelStatus: z.number().int(),
  linkType: z.number().int(),
  excludeCityCodes: z.array(z.string()),
  planTargetUrl: z.string().nullable(),
});

export const channelPlanData = z.object({
  adChannelCode: z.string(),
  planTargetUrl: z.string().nullable(),
});

const themeNames = Object.keys(THEMES) as [keyof typeof THEMES, ...(keyof typeof THEMES)[]];

/** The answer of h5Config; mirrors the `H5Config` interface of `../channel.ts`. */
export const h5ConfigData = z.object({
  adChannelCode: z.string(),
  name: z.string(),
  channelStatus: z.number().int(),
  linkType: z.number().int(),
  skin: z.number().int(),
  theme: z.enum(themeNames),
  themeColor: z.string(),
  flow: z.enum(['default', 'fenqile', 'formprocess3', 'formprocess4']),
  flowRoutes: z.object({ form: z.string(), rematch: z.string(), success: z.string() }),
  flags: z.array(z.string()),
  title: z.string().nullable(),
  icon: z.string().nullable(),
  needsLocation: z.boolean(),
  excludeCityCodes: z.array(z.string()),
  planTargetUrl: z.string().nullable(),
  trackReport: z.object({ platform: z.string(), params: z.array(z.string()) }).nullable(),
  allowedHosts: z.array(z.string()),
  /** The channel's operator (ADR 057; the configured one without a channel or record): one entry. */
  footer: z.array(z.object({ companyName: z.string(), filingNumber: z.string() })),
  agreements: z.array(z.object({ key: z.string(), title: z.string(), path: z.string() })),
});

export const reportClickData = z.object({
  /** True when this click is the first of this fingerprint on this channel today. */
  counted: z.boolean(),
  /** True when the click came without a fingerprint (stored, not counted). */
  flagged: z.boolean(),
});

export const reportEventData = z.object({
  /** False when this session already reported this step (nothing new stored). */
  recorded: z.boolean(),
});
