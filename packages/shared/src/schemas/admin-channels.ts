/**
 * Console channel management (issue 7): list, create, edit, status, route codes, A/B skin arms and the
 * live preview token. Shared by the server (validation) and the console (types and form checks).
 */
import { z } from 'zod';
import { KNOWN_FLAGS, LINK_TYPE_LABELS, SKINS, THEMES } from '../channel.ts';
import { isCityCode } from '../regions.ts';
import { pageData, pageQuery } from './admin.ts';
import { h5ConfigQuery, routeCodeSchema } from './channel.ts';
import { channelCodeSchema } from './common.ts';
import { operatorCodeSchema } from './operators.ts';

/** Flags chosen as checkboxes (skins are chosen separately). */
export const SKIN_FLAGS: readonly string[] = SKINS.map((n) => `skin${n}`);
export const OPTION_FLAGS: readonly string[] = KNOWN_FLAGS.filter((f) => !SKIN_FLAGS.includes(f));
export const COLOUR_FLAGS: readonly string[] = Object.keys(THEMES).filter((t) => t !== 'red');
export const FLOW_FLAGS: readonly string[] = ['fenqile', 'formprocess3', 'formprocess4'];

/** What each option flag does, grouped for the console's checkboxes. */
export const FLAG_GROUPS: readonly {
  title: string;
  /** Only one flag of an exclusive group may be set. */
  exclusive: boolean;
  flags: readonly { flag: string; label: string; description: string }[];
}[] = [
  {
    title: '主题色',
    exclusive: true,
    flags: [
      { flag: 'purple', label: '紫色', description: `主色 ${THEMES.purple.primary}（不选为经典红）` },
      { flag: 'shallowBlue', label: '浅蓝', description: `主色 ${THEMES.shallowBlue.primary}` },
      { flag: 'halo', label: '光晕蓝', description: `主色 ${THEMES.halo.primary}，首屏带光晕` },
      { flag: 'teal', label: '青色', description: `主色 ${THEMES.teal.primary}` },
    ],
  },
  {
    title: '申请流程',
    exclusive: true,
    flags: [
      { flag: 'fenqile', label: '分期乐流程', description: '表单、重新匹配与授权均在 /new-fill-information' },
      {
        flag: 'formprocess3',
        label: '流程三',
        description: '表单 /fill-information-three/loading，授权页三、成功页三',
      },
      {
        flag: 'formprocess4',
        label: '流程四',
        description: '表单、重新匹配与授权均在 /fill-information-four',
      },
    ],
  },
  {
    title: '渠道特性',
    exclusive: false,
    flags: [
      { flag: 'jufu', label: '聚富', description: '聚富合作渠道标记' },
      { flag: 'baidu', label: '百度', description: '百度投放渠道标记' },
      { flag: 'huanbei', label: '还呗', description: '还呗合作渠道标记' },
      { flag: 'haier', label: '海尔', description: '海尔自动表单渠道标记' },
    ],
  },
];

const FLAG_LABELS: Record<string, string> = Object.fromEntries(
  FLAG_GROUPS.flatMap((g) => g.flags.map((f) => [f.flag, f.label])),
);

/** A channel's flag (`skin8`, `purple`, `fenqile` …) in words: 皮肤8, 紫色, 分期乐流程; an unknown one named as such. */
export function channelFlagText(flag: string): string {
  const skin = /^skin(\d+)$/.exec(flag);
  if (skin) return `皮肤${skin[1]}`;
  return FLAG_LABELS[flag] ?? `未知标记（${flag}）`;
}

export const skinSchema = z
  .number({ error: '皮肤编号必须是整数' })
  .int('皮肤编号必须是整数')
  .refine((n) => (SKINS as readonly number[]).includes(n), {
    error: (issue) => `皮肤 ${String(issue.input)} 不存在，可选 ${SKINS.join('、')}`,
  });

export const skinArmSchema = z.object({
  skin: skinSchema,
  weight: z
    .number({ error: '分流权重必须是整数' })
    .int('分流权重必须是 1 到 100 的整数')
    .min(1, '分流权重必须是 1 到 100 的整数')
    .max(100, '分流权重必须是 1 到 100 的整数'),
});
export type SkinArm = z.infer<typeof skinArmSchema>;

/** A/B split: at least two arms of different skins (null = one skin for everyone). */
export const skinArmsSchema = z
  .array(skinArmSchema, { error: '分流方案必须是列表' })
  .min(2, 'A/B 分流至少需要两个皮肤')
  .max(8, 'A/B 分流最多 8 个皮肤')
  .superRefine((arms, ctx) => {
    const seen = new Set<number>();
    for (const [i, arm] of arms.entries()) {
      if (seen.has(arm.skin))
        ctx.addIssue({ code: 'custom', path: [i, 'skin'], message: `分流皮肤 skin${arm.skin} 重复` });
      seen.add(arm.skin);
    }
  });

/** Option flags of the known flag table; an unknown flag is named in the message. */
export const channelFlagsSchema = z
  .array(z.string({ error: '功能标记必须是文本' }).trim(), { error: '功能标记必须是列表' })
  .max(20, '功能标记最多 20 个')
  .superRefine((flags, ctx) => {
    for (const [i, f] of flags.entries()) {
      if (SKIN_FLAGS.includes(f))
        ctx.addIssue({ code: 'custom', path: [i], message: `皮肤请用“皮肤”选项设置，不能作为功能标记 ${f}` });
      else if (!OPTION_FLAGS.includes(f))
        ctx.addIssue({ code: 'custom', path: [i], message: `未知的功能标记：${f}` });
    }
    if (new Set(flags).size !== flags.length) ctx.addIssue({ code: 'custom', message: '功能标记不能重复' });
    const colours = flags.filter((f) => COLOUR_FLAGS.includes(f));
    if (colours.length > 1)
      ctx.addIssue({ code: 'custom', message: `主题色只能选一个（已选 ${colours.join('、')}）` });
    const flows = flags.filter((f) => FLOW_FLAGS.includes(f));
    if (flows.length > 1)
      ctx.addIssue({ code: 'custom', message: `申请流程只能选一个（已选 ${flows.join('、')}）` });
  });

/** Host names like partner.example.com (lower case, no port, no scheme). */
export const hostnameSchema = z
  .string({ error: '域名必须是文本' })
  .trim()
  .toLowerCase()
  .max(253, '域名过长')
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
    '允许跳转的域名格式不正确（例如 partner.example.com，不带 https:// 和路径）',
  );

const cityCodeSchema = z
  .string({ error: '城市代码必须是文本' })
  .refine(isCityCode, { error: (issue) => `城市代码 ${String(issue.input)} 不在行政区划表中` });

/** A plan target: a same-site path ("/login?…") or an https URL (host checked against allowedHosts). */
export const planTargetUrlSchema = z
  .string({ error: '计划落地页必须是文本' })
  .trim()
  .max(2000, '计划落地页地址过长')
  .refine(
    (v) => (v.startsWith('/') ? !/^\/[/\\]/.test(v) && !/\s/.test(v) : HTTPS_URL.test(v)),
    '计划落地页必须是 https:// 开头的地址或以 / 开头的站内路径',
  );

/** https://host[:port][/path|?query|#hash], no credentials, no spaces. */
const HTTPS_URL = /^https:\/\/([a-z0-9.-]+)(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;

/** Host of an absolute plan target URL (null for a same-site path). */
export function targetHost(url: string): string | null {
  const m = HTTPS_URL.exec(url.trim());
  return m ? m[1]!.toLowerCase() : null;
}

export const trackReportSchema = z.object({
  platform: z
    .string({ error: '请填写回传平台' })
    .trim()
    .regex(
      /^[a-z][a-z0-9_-]{0,31}$/,
      '回传平台为小写字母开头的 1 到 32 位字母、数字、下划线或短横线，如 oceanengine',
    ),
  params: z
    .array(
      z
        .string({ error: '回传参数名必须是文本' })
        .trim()
        .regex(/^[A-Za-z0-9_.-]{1,64}$/, '回传参数名只能包含字母、数字、下划线、点和短横线'),
    )
    .min(1, '至少填写一个回传参数（如 clickid、callback）')
    .max(20, '回传参数最多 20 个')
    .refine((p) => new Set(p).size === p.length, '回传参数不能重复'),
});

const optionalText = (max: number, label: string) =>
  z
    .string({ error: `${label}必须是文本` })
    .trim()
    .max(max, `${label}最多 ${max} 个字符`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

/**
 * Everything of a channel an operator edits (POST and PUT send the whole draft; absent optional
 * fields are empty). The cross-field checks (plan target host in allowedHosts) are in `checkDraft`.
 */
export const channelDraftFields = z.object({
  name: z.string({ error: '请填写渠道名称' }).trim().min(1, '请填写渠道名称').max(40, '渠道名称最多 40 个字'),
  channelStatus: z
    .union([z.literal(0), z.literal(1)], { error: '渠道状态只能是 0（停用）或 1（启用）' })
    .default(1),
  linkType: z
    .number({ error: '链接类型必须是 1 到 9 的整数' })
    .int('链接类型必须是 1 到 9 的整数')
    .min(1, '链接类型必须是 1 到 9 的整数')
    .max(9, '链接类型必须是 1 到 9 的整数'),
  skin: skinSchema,
  flags: channelFlagsSchema.default([]),
  skinArms: skinArmsSchema.nullable().optional(),
  excludeCityCodes: z
    .array(cityCodeSchema, { error: '排除城市必须是列表' })
    .max(400, '排除城市过多')
    .default([])
    .transform((codes) => [...new Set(codes)]),
  planTargetUrl: planTargetUrlSchema.nullable().optional(),
  pageTitle: optionalText(40, '页面标题'),
  pageIcon: optionalText(4000, '页面图标'),
  needsLocation: z.boolean({ error: '是否定位必须是布尔值' }).default(false),
  trackReport: trackReportSchema.nullable().optional(),
  allowedHosts: z
    .array(hostnameSchema, { error: '允许跳转的域名必须是列表' })
    .max(20, '允许跳转的域名最多 20 个')
    .default([])
    .transform((h) => [...new Set(h)]),
  /**
   * The operator whose record the channel's footer, agreements and SMS name (ADR 057); null or absent: the
   * configured default operator (OPERATOR_*).
   */
  operatorCode: operatorCodeSchema.nullable().optional(),
});

type DraftShape = z.infer<typeof channelDraftFields>;

/** Cross-field checks of a draft (zod superRefine body). */
function checkDraft(d: Pick<DraftShape, 'planTargetUrl' | 'allowedHosts'>, ctx: z.RefinementCtx) {
  const host = d.planTargetUrl ? targetHost(d.planTargetUrl) : null;
  if (host && !d.allowedHosts.includes(host))
    ctx.addIssue({
      code: 'custom',
      path: ['planTargetUrl'],
      message: `计划落地页的域名 ${host} 不在允许跳转的域名中`,
    });
}

export const channelDraftBody = channelDraftFields.superRefine(checkDraft);
export type ChannelDraft = z.infer<typeof channelDraftBody>;
export type ChannelDraftInput = z.input<typeof channelDraftBody>;

/** POST /api/admin/channels */
export const createChannelBody = channelDraftFields
  .extend({ adChannelCode: channelCodeSchema })
  .superRefine(checkDraft);
export type CreateChannelBody = z.infer<typeof createChannelBody>;

/** PUT /api/admin/channels/:id (the code is fixed once links carry it). */
export const updateChannelBody = channelDraftBody;

/** POST /api/admin/channels/preview: the unsaved form, optionally the arm skin to show. */
export const channelPreviewBody = channelDraftFields
  .extend({
    adChannelCode: channelCodeSchema.optional(),
    /** Show this skin (one of the arms) instead of `skin`. */
    previewSkin: skinSchema.optional(),
  })
  .superRefine(checkDraft);
export type ChannelPreviewBody = z.infer<typeof channelPreviewBody>;

export const channelPreviewData = z.object({
  token: z.string(),
  /** ISO time after which the token is refused. */
  expiresAt: z.string(),
});

export const channelIdParams = z.object({
  id: z.coerce
    .number({ error: '渠道编号无效' })
    .int('渠道编号无效')
    .positive('渠道编号无效')
    .max(2_147_483_647, '渠道编号无效'),
});

/** PUT /api/admin/channels/:id/status */
export const channelStatusBody = z.object({
  channelStatus: z.union([z.literal(0), z.literal(1)], { error: '渠道状态只能是 0（停用）或 1（启用）' }),
});

export const CHANNEL_SORTS = ['id', 'name', 'updatedAt', 'adChannelCode'] as const;

/** GET /api/admin/channels */
export const channelListQuery = pageQuery.extend({
  q: z.string().trim().max(64, '搜索词最多 64 个字符').optional(),
  status: z.coerce
    .number()
    .int()
    .refine((v) => v === 0 || v === 1, '状态只能是 0 或 1')
    .optional(),
  linkType: z.coerce.number().int().min(1, '链接类型为 1 到 9').max(9, '链接类型为 1 到 9').optional(),
});
export type ChannelListQuery = z.infer<typeof channelListQuery>;

export const channelListItem = z.object({
  id: z.number().int(),
  adChannelCode: z.string(),
  name: z.string(),
  channelStatus: z.number().int(),
  linkType: z.number().int(),
  skin: z.number().int(),
  theme: z.string(),
  flags: z.array(z.string()),
  skinArms: z.array(skinArmSchema).nullable(),
  routeCodeCount: z.number().int(),
  /** Counted clicks (one per fingerprint) of today, Asia/Shanghai. */
  todayClicks: z.number().int(),
  updatedAt: z.string(),
});
export type ChannelListItem = z.infer<typeof channelListItem>;
export const channelListData = pageData(channelListItem);
export type ChannelListData = z.infer<typeof channelListData>;

export const routeCodeItem = z.object({
  routeCode: z.string(),
  planTargetUrl: z.string().nullable(),
  status: z.number().int(),
  createdAt: z.string(),
  /** 失效访问: how often an ad link's visitor asked for this code while it did not exchange (disabled, or before it existed). */
  missCount: z.number().int(),
  /** The last such visit (ISO UTC), null without one. */
  lastMissAt: z.string().nullable(),
});
export type RouteCodeItem = z.infer<typeof routeCodeItem>;

/** What a route code whose exchange failed is now: an operator's code that is off (or on again), or none. */
export const ROUTE_CODE_MISS_STATES = ['disabled', 'enabled', 'missing'] as const;
export type RouteCodeMissState = (typeof ROUTE_CODE_MISS_STATES)[number];
export const ROUTE_CODE_MISS_STATE_LABELS: Record<RouteCodeMissState, string> = {
  disabled: '已停用',
  enabled: '已重新启用',
  missing: '不存在（未创建或已删除）',
};

/** GET /api/admin/route-code-misses: the latest first. */
export const routeCodeMissListQuery = pageQuery.pick({ page: true, pageSize: true });

/** A route code ad links still carry although it does not exchange (issue 44.19); nothing about visitors. */
export const routeCodeMissItem = z.object({
  routeCode: z.string(),
  state: z.enum(ROUTE_CODE_MISS_STATES),
  /** The channel of an operator's code (null: unknown or deleted). */
  adChannelCode: z.string().nullable(),
  channelId: z.number().int().nullable(),
  channelName: z.string().nullable(),
  /** Failed exchanges counted (one per page load of such a link). */
  hits: z.number().int(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
});
export type RouteCodeMissItem = z.infer<typeof routeCodeMissItem>;
export const routeCodeMissListData = pageData(routeCodeMissItem);
export type RouteCodeMissList = z.infer<typeof routeCodeMissListData>;

export const channelDetailAdminData = z.object({
  id: z.number().int(),
  adChannelCode: z.string(),
  name: z.string(),
  channelStatus: z.number().int(),
  linkType: z.number().int(),
  skin: z.number().int(),
  /** Option flags (the skin flag is in `skin`). */
  flags: z.array(z.string()),
  /** Flags stored on the channel that the flag table does not know (kept only until the next save). */
  unknownFlags: z.array(z.string()),
  skinArms: z.array(skinArmSchema).nullable(),
  excludeCityCodes: z.array(z.string()),
  planTargetUrl: z.string().nullable(),
  pageTitle: z.string().nullable(),
  pageIcon: z.string().nullable(),
  needsLocation: z.boolean(),
  trackReport: z.object({ platform: z.string(), params: z.array(z.string()) }).nullable(),
  allowedHosts: z.array(z.string()),
  /** The channel's operator (null: the configured default operator). */
  operator: z
    .object({ code: z.string(), companyName: z.string(), shortName: z.string(), filingNumber: z.string() })
    .nullable(),
  routeCodes: z.array(routeCodeItem),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ChannelAdminDetail = z.infer<typeof channelDetailAdminData>;

/** POST /api/admin/channels/:id/route-codes */
export const createRouteCodeBody = z.object({
  routeCode: routeCodeSchema,
  planTargetUrl: planTargetUrlSchema.nullable().optional(),
  status: z
    .union([z.literal(0), z.literal(1)], { error: '路由码状态只能是 0（停用）或 1（启用）' })
    .default(1),
});
export type CreateRouteCodeBody = z.infer<typeof createRouteCodeBody>;

/** PUT /api/admin/channels/:id/route-codes/:routeCode */
export const updateRouteCodeBody = createRouteCodeBody.omit({ routeCode: true });
export const routeCodeParams = channelIdParams.extend({ routeCode: routeCodeSchema });

/** GET /api/adChannel/h5Config with the console's preview token (issue 7 live preview). */
export const h5ConfigWithPreviewQuery = h5ConfigQuery.extend({
  previewToken: z
    .string({ error: '预览令牌必须是文本' })
    .trim()
    .max(8000, '预览令牌过长')
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, '预览令牌格式不正确')
    .optional(),
});

export const LINK_TYPE_OPTIONS = Object.entries(LINK_TYPE_LABELS).map(([value, label]) => ({
  value: Number(value),
  label: `${value} ${label}`,
}));
