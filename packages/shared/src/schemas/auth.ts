import { z } from 'zod';
import { PHONE_REQUIRED_MSG } from '../validators/phone.ts';
import { pageData, pageQuery } from './admin.ts';
import {
  abTestTypeSchema,
  channelCodeSchema,
  encryptionMobileSchema,
  flagSchema,
  INT4_MAX,
  phoneSchema,
  smsCodeSchema,
  sourceSchema,
  uidSchema,
} from './common.ts';

/** Tickets issued by GET /api/getEncryptionMobile start with this prefix. */
export const MOBILE_TICKET_PREFIX = 'emt.';

type PhoneCarrier = { phone?: string; mobile?: string; encryptionMobile?: string; source?: string };

function requirePhoneCarrier(value: PhoneCarrier, ctx: z.RefinementCtx) {
  if (!value.phone && !value.mobile && !value.encryptionMobile) {
    ctx.addIssue({ code: 'custom', path: ['phone'], message: PHONE_REQUIRED_MSG });
  }
  if (value.encryptionMobile && !value.encryptionMobile.startsWith(MOBILE_TICKET_PREFIX) && !value.source) {
    ctx.addIssue({ code: 'custom', path: ['source'], message: '加密手机号需要同时提供来源 source' });
  }
}

/**
 * What `requirePhoneCarrier` demands, as the API document says it (a refinement has no JSON Schema of its
 * own): a phone, a mobile, an encrypted phone with its source, or a ticket (`emt.…`) alone. One `anyOf` of
 * `required`s: an `allOf` of two `anyOf`s (the source rule apart) is the same, but hypothesis-jsonschema (so
 * Schemathesis) never finishes merging it. Not said: an encrypted phone sent beside a phone needs its source too.
 */
const PHONE_CARRIER_DOC = {
  description:
    'One of: phone; mobile; encryptionMobile with source; a ticket from getEncryptionMobile (emt.…) as ' +
    'encryptionMobile. An encryptionMobile that is not a ticket always needs its source.',
  anyOf: [
    { required: ['phone'] },
    { required: ['mobile'] },
    { required: ['encryptionMobile', 'source'] },
    {
      required: ['encryptionMobile'],
      properties: { encryptionMobile: { pattern: `^${MOBILE_TICKET_PREFIX.replace('.', '\\.')}` } },
    },
  ],
};

/**
 * The solved challenge of a 1008 answer (ADR 055): base64 of the JSON `{challenge, solution}` (the ALTCHA v2
 * payload), sent with the repeated code request. Used once; valid five minutes.
 */
export const altchaSchema = z
  .string({ error: '安全验证必须是文本' })
  .min(1, '安全验证不能为空')
  .max(4096, '安全验证过长')
  .meta({
    description:
      'Only after a 1008 (CHALLENGE_REQUIRED) answer: base64 of JSON {challenge, solution}, the solved ALTCHA challenge of data.challenge. Single use, valid 5 minutes.',
  });

/** The known-device token a successful login answers (ADR 055): send it as header X-Known-Device. */
const knownDeviceField = z.string().meta({
  description:
    'A token for this device (ADR 055): keep it and send it as header X-Known-Device on the send-code and login calls of this phone. Valid 180 days from its last login.',
});

/**
 * The headers of the send-code and login calls that the API reads beyond the usual ones (ADR 055): other headers
 * pass through untouched.
 */
export const knownDeviceHeaders = z.looseObject({
  'x-known-device': z.string().max(200, '设备标识过长').optional().meta({
    description:
      'The knownDevice token a login of this phone answered on this device (ADR 055): code requests are counted on the device’s own budget and codes it gets are held by it; on the console, wrong passwords from it do not count against the account’s lock. Ignored when unknown, expired or another phone’s.',
  }),
});

/** POST /api/login/sendPhoneVerifyCode: phone; or mobile + channelCode; or encryptionMobile + source. */
export const sendPhoneVerifyCodeBody = z
  .object({
    phone: phoneSchema.optional(),
    mobile: phoneSchema.optional(),
    channelCode: channelCodeSchema.optional(),
    encryptionMobile: encryptionMobileSchema.optional(),
    source: sourceSchema.optional(),
    altcha: altchaSchema.optional(),
  })
  .superRefine(requirePhoneCarrier)
  .meta(PHONE_CARRIER_DOC);
export type SendPhoneVerifyCodeBody = z.infer<typeof sendPhoneVerifyCodeBody>;

export const sendPhoneVerifyCodeData = z.object({
  /** Masked phone the code was sent to. */
  mobile: z.string(),
  /** Seconds before another code may be requested. */
  retryAfter: z.number().int(),
  /** Seconds the code stays valid. */
  expiresIn: z.number().int(),
});

/** POST /api/login */
export const loginBody = z
  .object({
    mobile: phoneSchema.optional(),
    phone: phoneSchema.optional(),
    /** Optional in the schema so that a missing code answers VERIFICATION_CODE_REQUIRED (1001). */
    code: smsCodeSchema.optional(),
    adChannelCode: channelCodeSchema.optional(),
    abTestType: abTestTypeSchema.optional(),
    isFormReq: flagSchema.optional(),
    encryptionMobile: encryptionMobileSchema.optional(),
    source: sourceSchema.optional(),
  })
  .superRefine(requirePhoneCarrier)
  // Without a code the login answers 1001 (a 400 the document lists): the code is required.
  .meta({ ...PHONE_CARRIER_DOC, required: ['code'] });
export type LoginBody = z.infer<typeof loginBody>;

export const loginUserSchema = z.object({
  uid: z.number().int(),
  userInfoStatus: z.number().int(),
  coverStatus: z.number().int(),
});

export const loginData = z.object({
  token: z.string(),
  loginUser: loginUserSchema,
  knownDevice: knownDeviceField,
});
export type LoginData = z.infer<typeof loginData>;

export const loginUserInfoData = z.object({
  uid: z.number().int(),
  /** Masked. */
  mobile: z.string(),
  adChannelCode: z.string().nullable(),
  adChannelId: z.number().int().nullable(),
  userInfoStatus: z.number().int(),
  coverStatus: z.number().int(),
  createdAt: z.string(),
});

export const userDetailData = z.object({
  uid: z.number().int(),
  mobile: z.string(),
  adChannelId: z.number().int().nullable(),
});

export const getUserLoginVOQuery = z.object({ uid: uidSchema });

/** POST /api/cancellation: without a code it answers 1001 (a 400), so the document requires it. */
export const cancellationBody = z
  .object({
    code: smsCodeSchema.optional(),
  })
  .meta({ required: ['code'] });

export const getEncryptionMobileQuery = z.object({
  encryptionMobile: encryptionMobileSchema,
  source: sourceSchema,
  channelCode: channelCodeSchema.optional(),
});

export const encryptionMobileData = z.object({
  /** Masked phone, for display. */
  mobile: z.string(),
  /** Short-lived ticket accepted as encryptionMobile by sendPhoneVerifyCode and login. */
  ticket: z.string(),
  expiresIn: z.number().int(),
});

export const checkMobileLoginBody = z
  .object({
    encryptionMobile: encryptionMobileSchema,
    source: sourceSchema.optional(),
  })
  .superRefine(requirePhoneCarrier)
  .meta(PHONE_CARRIER_DOC);

export const checkMobileLoginData = z.object({
  registered: z.boolean(),
});

/** channel_partner: an outside channel's read-only login that sees only its channels' figures (issue 7). */
export const staffRoleSchema = z.enum(['admin', 'operator', 'viewer', 'channel_partner']);
export type StaffRole = z.infer<typeof staffRoleSchema>;

/**
 * The console roles that may see personal data in clear: reveal a field (`/api/admin/users/:id/reveal`)
 * and read people's private uploads (ID-card and face pictures), each audit-logged. The one list both
 * use (issue 15).
 */
export const PERSONAL_DATA_ROLES = ['admin', 'operator'] as const satisfies readonly StaffRole[];

export function mayRevealPersonalData(role: StaffRole): boolean {
  return (PERSONAL_DATA_ROLES as readonly StaffRole[]).includes(role);
}

export const staffSendCodeBody = z.object({ phone: phoneSchema, altcha: altchaSchema.optional() });

/** POST /api/crm/admin/login: phone + password, or phone + SMS code. */
export const staffLoginBody = z
  .object({
    phone: phoneSchema,
    password: z
      .string({ error: '密码必须是文本' })
      .min(1, '请输入密码')
      .max(128, '密码最长128个字符')
      .optional(),
    code: smsCodeSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.password && !v.code) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: '请输入密码或短信验证码' });
    }
  })
  .meta({ anyOf: [{ required: ['password'] }, { required: ['code'] }] });

export const staffSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  mobile: z.string(),
  role: staffRoleSchema,
  /** channel_partner: the channels whose figures it may read; empty for staff. */
  channelCodes: z.array(z.string()),
});
export type Staff = z.infer<typeof staffSchema>;

/** Console passwords: 10–128 characters. */
export const STAFF_PASSWORD_MIN = 10;
export const staffPasswordSchema = z
  .string({ error: '密码必须是文本' })
  .min(STAFF_PASSWORD_MIN, `密码至少${STAFF_PASSWORD_MIN}个字符`)
  .max(128, '密码最长128个字符');

const staffNameSchema = z
  .string({ error: '请输入姓名' })
  .trim()
  .min(1, '请输入姓名')
  .max(40, '姓名最长40个字符');

const staffChannelCodes = z
  .array(channelCodeSchema, { error: '渠道必须是渠道码列表' })
  .max(100, '最多 100 个渠道')
  .transform((list) => [...new Set(list)]);

function partnerNeedsChannels(
  v: { role?: StaffRole | undefined; channelCodes?: string[] | undefined },
  ctx: z.RefinementCtx,
) {
  if (v.role === 'channel_partner' && (!v.channelCodes || v.channelCodes.length === 0)) {
    ctx.addIssue({ code: 'custom', path: ['channelCodes'], message: '渠道合作方账号至少需要一个渠道' });
  }
  if (v.role && v.role !== 'channel_partner' && v.channelCodes && v.channelCodes.length > 0) {
    ctx.addIssue({ code: 'custom', path: ['channelCodes'], message: '只有渠道合作方账号可以绑定渠道' });
  }
}

/** POST /api/admin/staff (admin only). Without a password the account logs in with SMS codes. */
export const createStaffBody = z
  .object({
    phone: phoneSchema,
    name: staffNameSchema,
    role: staffRoleSchema,
    channelCodes: staffChannelCodes.optional(),
    password: staffPasswordSchema.optional(),
  })
  .superRefine(partnerNeedsChannels);
export type CreateStaffBody = z.infer<typeof createStaffBody>;

/** PUT /api/admin/staff/:id (admin only): name, role and channels. */
export const updateStaffBody = z
  .object({
    name: staffNameSchema.optional(),
    role: staffRoleSchema.optional(),
    channelCodes: staffChannelCodes.optional(),
  })
  .superRefine(partnerNeedsChannels);
export type UpdateStaffBody = z.infer<typeof updateStaffBody>;

/** POST /api/admin/staff/:id/reset-password: a given password, or none to generate one. */
export const resetStaffPasswordBody = z.object({ password: staffPasswordSchema.optional() });
export const resetStaffPasswordData = z.object({
  /** The generated password, shown once; null when the caller chose it. */
  password: z.string().nullable(),
});

export const staffStatusSchema = z.enum(['active', 'disabled'], {
  error: 'status 只能是 active 或 disabled',
});

export const staffListItem = staffSchema.extend({
  status: staffStatusSchema,
  hasPassword: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type StaffListItem = z.infer<typeof staffListItem>;

export const staffLoginData = z.object({
  token: z.string(),
  staff: staffSchema,
  knownDevice: knownDeviceField,
});
export type StaffLoginData = z.infer<typeof staffLoginData>;

export const STAFF_SORTS = ['id', 'name', 'role', 'status', 'createdAt', 'lastLoginAt'] as const;

/** GET /api/admin/staff (admin only). */
export const staffListQuery = pageQuery.extend({
  sort: z.enum(STAFF_SORTS, { error: '排序字段无效' }).default('id'),
  order: z.enum(['asc', 'desc']).default('asc'),
  role: staffRoleSchema.optional(),
  status: staffStatusSchema.optional(),
  /** Part of the name, or a full phone number. */
  keyword: z.string().trim().max(40, '关键词最长40个字符').optional(),
});
export type StaffListQuery = z.infer<typeof staffListQuery>;
export const staffListData = pageData(staffListItem);

/** /api/admin/staff/:id — the account. */
export const staffIdParams = z.object({
  id: z.coerce.number().int('编号格式不正确').positive('编号格式不正确').max(INT4_MAX, '编号格式不正确'),
});
/** PUT /api/admin/staff/:id/status */
export const staffStatusBody = z.object({ status: staffStatusSchema });
