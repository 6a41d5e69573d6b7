import { z } from 'zod';
import { fingerprintSchema } from './channel.ts';
import { channelCodeSchema } from './common.ts';

/**
 * Spec §7 "Reporting and misc" (issue 6, module `site`): app versions and the app-download JSON,
 * the home dialog banner, page configuration, the temporary share link, the client reports and the
 * staff WeChat binding. Queries arrive as text; empty values (`?platform=`) count as absent.
 */

const emptyAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsAbsent, schema.optional());
const required = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsAbsent, schema);

// --- app versions ------------------------------------------------------------------------------

export const APP_PLATFORMS = ['android', 'ios'] as const;
export type AppPlatform = (typeof APP_PLATFORMS)[number];
export const APP_PLATFORM_LABELS: Record<AppPlatform, string> = { android: '安卓', ios: 'iOS' };

const platformSchema = z.enum(APP_PLATFORMS, {
  error: (iss) =>
    iss.input === undefined ? '请提供平台 platform（android 或 ios）' : '平台 platform 只能是 android 或 ios',
});

/** GET /api/appVersion/newestVersion */
export const newestVersionQuery = z.object({ platform: required(platformSchema) });

/** One published app version as the H5 sees it. */
export const appVersionData = z.object({
  platform: z.enum(APP_PLATFORMS),
  version: z.string(),
  build: z.number().int(),
  downloadUrl: z.string(),
  notes: z.string(),
  forceUpdate: z.boolean(),
  /** ISO time. */
  publishedAt: z.string(),
});
export type AppVersionData = z.infer<typeof appVersionData>;

/** GET /api/appVersion/newestVersion: the newest version of the platform (null when none). */
export const newestVersionData = appVersionData
  .extend({
    /** The app-download JSON in the storage's public area (fetch it with `?t=<timestamp>`). */
    manifestUrl: z.string(),
  })
  .nullable();
export type NewestVersionData = z.infer<typeof newestVersionData>;

/** The app-download JSON (`public/app/download.json` of the storage), rewritten from app_versions. */
export const appDownloadManifest = z.object({
  /** ISO time the file was written. */
  generatedAt: z.string(),
  android: appVersionData.nullable(),
  ios: appVersionData.nullable(),
});
export type AppDownloadManifest = z.infer<typeof appDownloadManifest>;

/** GET /api/reportUserDownloadApp */
export const reportDownloadQuery = z.object({ platform: optional(platformSchema) });

export const recordedData = z.object({ recorded: z.boolean() });

// --- banners -----------------------------------------------------------------------------------

/** Placement of the banner GET /api/banner/homeDialogBanner answers. */
export const HOME_DIALOG_PLACEMENT = 'homeDialog';

/** GET /api/banner/homeDialogBanner: without a code, the platform_param header's channel. */
export const homeDialogBannerQuery = z.object({ adChannelCode: optional(channelCodeSchema) });

export const bannerData = z.object({
  id: z.number().int(),
  title: z.string(),
  /** A same-site path (the H5's /banners/*.svg) or an https URL. */
  imageUrl: z.string(),
  /** Where a tap goes: a same-site path, or an https page the H5 checks against allowed hosts. */
  targetUrl: z.string().nullable(),
});
export type BannerData = z.infer<typeof bannerData>;

// --- page configuration ------------------------------------------------------------------------

export const PAGE_CONFIG_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** GET /api/pageConfig/getPageConfigByCode */
export const pageConfigQuery = z.object({
  code: required(
    z
      .string({ error: '请提供页面配置编码 code' })
      .trim()
      .regex(PAGE_CONFIG_CODE_PATTERN, '页面配置编码 code 为1到64位字母、数字、下划线或短横线'),
  ),
});

export const pageConfigData = z.object({
  code: z.string(),
  config: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
});
export type PageConfigData = z.infer<typeof pageConfigData>;

/** Code of the home shortcut icons (GET /api/pageConfig/getAppIndexIconList). */
export const APP_INDEX_ICON_CODE = 'appIndexIconList';
/** Code of the download page's copy (the download card of /download). */
export const DOWNLOAD_PAGE_CODE = 'downloadPage';

/** One home shortcut: `path` a same-site path, `icon` a same-site image path or https URL. */
export const appIndexIcon = z.object({
  key: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/),
  title: z.string().min(1).max(16),
  icon: z.string().regex(/^(\/(?!\/)|https:\/\/)\S{1,300}$/),
  path: z.string().regex(/^\/(?!\/)\S{0,300}$/),
});
export type AppIndexIcon = z.infer<typeof appIndexIcon>;
export const appIndexIconListData = z.array(appIndexIcon);

/** The `downloadPage` configuration (copy of the download card). */
export const downloadPageConfig = z.object({
  title: z.string().max(40),
  subtitle: z.string().max(80),
  features: z.array(z.string().max(40)).max(6),
});
export type DownloadPageConfig = z.infer<typeof downloadPageConfig>;

// --- temporary link ----------------------------------------------------------------------------

export const TEMP_LINK_TYPES = ['download', 'service'] as const;
export type TempLinkType = (typeof TEMP_LINK_TYPES)[number];
/** Lifetime of a temporary link. */
export const TEMP_LINK_TTL_SECONDS = 600;

/** GET /api/common/temp/link */
export const tempLinkQuery = z.object({
  type: required(
    z.enum(TEMP_LINK_TYPES, {
      error: (iss) =>
        iss.input === undefined
          ? '请提供链接类型 type（download 或 service）'
          : '链接类型 type 只能是 download 或 service',
    }),
  ),
  adChannelCode: optional(channelCodeSchema),
});

export const tempLinkData = z.object({
  type: z.enum(TEMP_LINK_TYPES),
  /** The link to share (absolute when PUBLIC_BASE_URL is set, else a path of this site). */
  url: z.string(),
  /** ISO time after which the link no longer carries its channel. */
  expiresAt: z.string(),
});
export type TempLinkData = z.infer<typeof tempLinkData>;

/** GET /api/common/temp/link/open */
export const tempLinkOpenQuery = z.object({
  token: required(
    z
      .string({ error: '请提供链接凭证 token' })
      .max(512, '链接凭证 token 格式不正确')
      .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, '链接凭证 token 格式不正确'),
  ),
});

// --- client reports ----------------------------------------------------------------------------

/** The `type` of /api/report/type and /api/report/click: a short token such as `banner` or `product_card`. */
export const reportTypeSchema = z
  .string({ error: '请提供上报类型 type' })
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, '上报类型 type 为1到64位字母、数字或 _ . : -');

export const reportTypeQuery = z.object({ type: required(reportTypeSchema) });

/** A value of a report's extra data: short text, a number or a flag. */
const reportValue = z.union([z.string().max(200, '上报数据的文本最长200个字符'), z.number(), z.boolean()]);
export const REPORT_DATA_MAX_KEYS = 20;

/**
 * Body of the report calls (all optional): small extra data, and the fingerprint / channel for a
 * beacon (navigator.sendBeacon sends no headers, and sends text/plain: JSON text is accepted).
 */
export const reportBody = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v ?? {};
    if (v.trim() === '') return {};
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  },
  z
    .object(
      {
        data: z
          .record(
            z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/, '上报数据的键为1到32位字母、数字或 _ . -'),
            reportValue,
          )
          .refine(
            (r) => Object.keys(r).length <= REPORT_DATA_MAX_KEYS,
            `上报数据最多${REPORT_DATA_MAX_KEYS}项`,
          )
          .optional(),
        fingerprint: fingerprintSchema.optional(),
        adChannelCode: channelCodeSchema.optional(),
      },
      { error: '请求数据必须是 JSON 对象' },
    )
    .strip(),
);
export type ReportBody = z.infer<typeof reportBody>;

/** PUT /api/report/h5device */
export const h5DeviceQuery = z.object({
  devicePlatForm: required(
    z
      .string({ error: '请提供设备平台 devicePlatForm' })
      .trim()
      .regex(/^[A-Za-z0-9_.-]{1,32}$/, '设备平台 devicePlatForm 为1到32位字母、数字或 _ . -'),
  ),
});

/** Longest `content` of POST /api/report/log. */
export const REPORT_LOG_MAX_CHARS = 2000;

/** POST /api/report/log */
export const reportLogQuery = z.object({
  content: required(
    z
      .string({ error: '请提供日志内容 content' })
      .trim()
      .min(1, '请提供日志内容 content')
      .max(REPORT_LOG_MAX_CHARS, `日志内容 content 最长${REPORT_LOG_MAX_CHARS}个字符`),
  ),
});

/** GET /api/user/info/log: at most this many query keys are stored, each value cut to 200 characters. */
export const USER_INFO_LOG_MAX_KEYS = 20;
export const USER_INFO_LOG_MAX_VALUE_CHARS = 200;

/** GET /api/user/info/log?{query}: any query (keys checked, values joined when repeated). */
export const userInfoLogQuery = z
  .record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, '日志参数名为1到64位字母、数字或 _ . -'),
    z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v.join(',') : v)),
  )
  .refine((q) => Object.keys(q).length >= 1, '请提供要记录的参数')
  .refine((q) => Object.keys(q).length <= 50, '日志参数过多');

// --- staff WeChat binding ----------------------------------------------------------------------

/** PUT /api/crm/admin/org/employee/wechat/bindOpenid */
export const bindOpenidBody = z.object(
  {
    openid: z
      .string({ error: '请提供微信 openid' })
      .trim()
      .regex(/^[A-Za-z0-9_-]{16,64}$/, '微信 openid 格式不正确'),
  },
  { error: '请求数据必须是对象' },
);

export const bindOpenidData = z.object({
  staffId: z.number().int(),
  /** The openid with its middle hidden. */
  openidMasked: z.string(),
  boundAt: z.string(),
});
