import { z } from 'zod';
import {
  APPLICATION_FIELD_LABELS,
  APPLICATION_OPTION_CODES,
  type ApplicationOptionField,
  CITY_CODE_MSG,
  REAL_NAME_MSG,
  REAL_NAME_PATTERN,
} from '../application-fields.ts';
import { checkIdCard, ID_CARD_MESSAGES } from '../validators/id-card.ts';
import { channelCodeSchema } from './common.ts';

export {
  APPLICATION_FIELD_LABELS,
  APPLICATION_OPTION_CODES,
  type ApplicationOptionField,
  CITY_CODE_MSG,
  REAL_NAME_MSG,
  REAL_NAME_PATTERN,
} from '../application-fields.ts';

const isMissing = (input: unknown) => input === undefined || input === null;

function option(field: ApplicationOptionField) {
  const label = APPLICATION_FIELD_LABELS[field];
  const codes: readonly number[] = APPLICATION_OPTION_CODES[field];
  const invalid = `${label}选项无效，可选：${codes.join('、')}`;
  return z
    .number({ error: (iss) => (isMissing(iss.input) ? `请选择${label}` : invalid) })
    .int(invalid)
    .refine((v) => codes.includes(v), invalid);
}

const text = (label: string) =>
  z.string({ error: (iss) => (isMissing(iss.input) ? `请填写${label}` : `${label}必须是文本`) }).trim();

const draftFields = {
  adChannelCode: channelCodeSchema,
  isHuaWeiPhone: z.boolean({
    error: (iss) => (isMissing(iss.input) ? '请提供是否华为手机' : '是否华为手机必须是 true 或 false'),
  }),
  applyLimit: option('applyLimit'),
  job: option('job'),
  payoffForm: option('payoffForm'),
  socialSecurity: option('socialSecurity'),
  housingFund: option('housingFund'),
  insurance: option('insurance'),
  houseProperty: option('houseProperty'),
  carProperty: option('carProperty'),
  sesameCredit: option('sesameCredit'),
  creditInvestigation: option('creditInvestigation'),
  realName: text('真实姓名').max(20, REAL_NAME_MSG).regex(REAL_NAME_PATTERN, REAL_NAME_MSG),
  identity: text('身份证号')
    .max(18, ID_CARD_MESSAGES.format)
    .toUpperCase()
    .superRefine((value, ctx) => {
      const problem = checkIdCard(value);
      if (problem) ctx.addIssue({ code: 'custom', message: ID_CARD_MESSAGES[problem] });
    }),
  workCity: text('工作城市')
    .min(1, '请填写工作城市')
    .max(32, '工作城市最长32个字')
    .regex(/^[\p{Script=Han}·]+$/u, '工作城市只能是中文地名'),
  workCityCode: text('工作城市编码').regex(/^\d{6}$/, CITY_CODE_MSG),
};

/** Spec §5: empty values (empty or blank strings, null) are removed from request bodies. */
function dropEmpty(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) continue;
    out[k] = v;
  }
  return out;
}

const fullObject = z.object(draftFields, { error: '表单数据必须是对象' });

/** POST /api/user/info/save: the whole draft, every field required. */
export const applicationFormBody = z.preprocess(dropEmpty, fullObject);
export type ApplicationForm = z.infer<typeof fullObject>;

/**
 * POST /api/user/info/save body: the whole draft, plus `autoForm: true` when the answers came from the
 * automatic (Haier) form and the person confirmed them (partners are told). realName and identity may
 * be left out only by a person with a verified identity (issue 16.1), which the server then uses; the
 * server requires them otherwise (applicationFormBody).
 */
export const applicationSaveBody = z.preprocess(
  dropEmpty,
  fullObject.partial({ realName: true, identity: true }).extend({
    autoForm: z.boolean({ error: 'autoForm 必须是 true 或 false' }).optional(),
  }),
);
export type ApplicationSaveBody = z.infer<typeof applicationSaveBody>;

/** GET /api/user/info/verifiedIdentity: the identity a passed face verification was made with. */
export const verifiedIdentityData = z.object({
  verified: z.boolean(),
  /** The verified name (the person's own), null when not verified. */
  realName: z.string().nullable(),
  /** The verified ID number masked (110***********1234), null when not verified. */
  identity: z.string().nullable(),
  verifiedAt: z.string().nullable(),
});
export type VerifiedIdentityData = z.infer<typeof verifiedIdentityData>;

/** POST /api/user/info/tempSave: any subset of the draft (autosave); merged into the stored draft. */
export const applicationDraftBody = z.preprocess(dropEmpty, fullObject.partial());
export type ApplicationDraft = z.infer<ReturnType<typeof fullObject.partial>>;

export const tempSaveData = z.object({ savedAt: z.string() });
export type TempSaveData = z.infer<typeof tempSaveData>;

/** GET /api/user/info/form/show: the stored draft; realName and identity masked. */
export const applicationDraftData = z.object({
  adChannelCode: z.string().optional(),
  isHuaWeiPhone: z.boolean().optional(),
  applyLimit: z.number().optional(),
  job: z.number().optional(),
  payoffForm: z.number().optional(),
  socialSecurity: z.number().optional(),
  housingFund: z.number().optional(),
  insurance: z.number().optional(),
  houseProperty: z.number().optional(),
  carProperty: z.number().optional(),
  sesameCredit: z.number().optional(),
  creditInvestigation: z.number().optional(),
  realName: z.string().optional(),
  identity: z.string().optional(),
  workCity: z.string().optional(),
  workCityCode: z.string().optional(),
});

/** Submit status (spec §3): 0 unsubmitted, 1 submitted-unauthorized, 10 authorized. */
export const submitStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(10)]);
export type SubmitStatus = z.infer<typeof submitStatusSchema>;

/** GET /api/user/info/detail (apply status). */
export const applyStatusData = z.object({
  submitStatus: submitStatusSchema,
  applyLimit: z.number().nullable(),
  workCity: z.string().nullable(),
});

/** GET /api/user/info/status/result */
export const statusResultData = z.object({
  submitStatus: submitStatusSchema,
  userInfoStatus: z.number().int(),
  coverStatus: z.number().int(),
});

const emptyAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** GET /api/app/userInfo/userFormConfig?adChannelCode */
export const userFormConfigQuery = z.object({
  adChannelCode: z.preprocess(emptyAsAbsent, channelCodeSchema.optional()),
});

export const userFormConfigData = z.object({
  /** 1 open (CRM credit flow), 0 closed. */
  creditStatus: z.union([z.literal(0), z.literal(1)]),
  diversionStatus: z.union([z.literal(0), z.literal(1)]),
  /** 1 CanCover, 0 not coverable. */
  coverStatus: z.number().int(),
});

/** POST /api/user/info/identityNameVerify: the name and number, validated as in the form. */
export const identityNameVerifyBody = z.object(
  { realName: applicationFormBody.out.shape.realName, identity: applicationFormBody.out.shape.identity },
  { error: '请求数据必须是对象' },
);
export const identityNameVerifyData = z.object({
  /** null: nobody confirmed the name against the number (local provider, or the service failed). */
  verified: z.boolean().nullable(),
  method: z.enum(['format-only', 'provider']),
  note: z.string(),
  age: z.number().int(),
  /** 1 male, 2 female (from the number). */
  gender: z.number().int(),
});
export type IdentityNameVerifyBody = z.infer<typeof identityNameVerifyBody>;
export type IdentityNameVerifyData = z.infer<typeof identityNameVerifyData>;
