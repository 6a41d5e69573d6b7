import { z } from 'zod';
import {
  CONTACT_NAME_PATTERN,
  CONTACT_RELATIONSHIPS,
  CREDIT_FIELD_LABELS,
  CREDIT_MESSAGES,
  CREDIT_OPTION_CODES,
  CREDIT_TEXT_LIMITS,
  CREDIT_WIZARD_STEPS,
  type CreditOptionField,
  contactLabel,
  contactPairProblems,
} from '../credit-info.ts';
import { isCityCode } from '../regions.ts';
import { PHONE_PATTERN } from '../validators/phone.ts';
import { cleanParams } from '../values.ts';

/**
 * Credit information calls (spec §3 "Base/credit info", §7 GET /api/app/userInfo/baseDetail and
 * POST /api/app/userInfo/baseTempSave). The codes, labels, pair rules and the wizard step are in
 * ../credit-info.ts (zod-free, shared with the H5).
 */

const isMissing = (input: unknown) => input === undefined || input === null;

function option(field: CreditOptionField) {
  const label = CREDIT_FIELD_LABELS[field];
  const codes: readonly number[] = CREDIT_OPTION_CODES[field];
  const invalid = `${label}选项无效，可选：${codes.join('、')}`;
  return z
    .number({ error: (iss) => (isMissing(iss.input) ? `请选择${label}` : invalid) })
    .int(invalid)
    .refine((v) => codes.includes(v), invalid);
}

const text = (label: string) =>
  z.string({ error: (iss) => (isMissing(iss.input) ? `请填写${label}` : `${label}必须是文本`) }).trim();

// Control characters (line breaks, tabs …) and angle brackets have no place in a name or an address.
const PLAIN_TEXT = /^[^\p{Cc}<>]*$/u;

function limitedText(field: keyof typeof CREDIT_TEXT_LIMITS) {
  const label = CREDIT_FIELD_LABELS[field];
  const { min, max } = CREDIT_TEXT_LIMITS[field];
  return text(label)
    .min(min, `${label}至少${min}个字`)
    .max(max, `${label}最多${max}个字`)
    .regex(PLAIN_TEXT, `${label}不能包含换行或尖括号`);
}

/** A six-digit city code of the two-level region table (../regions.ts), as the region pickers give. */
function region(field: 'residentialRegion' | 'companyRegion') {
  const label = CREDIT_FIELD_LABELS[field];
  return text(`${label}编码`)
    .regex(/^\d{6}$/, `${label}编码应为6位数字`)
    .refine(isCityCode, `${label}编码不在行政区划表中，请重新选择`);
}

function contact(index: number) {
  const who = contactLabel(index);
  return z.object(
    {
      relationship: z.enum(CONTACT_RELATIONSHIPS, {
        error: (iss) =>
          isMissing(iss.input) || iss.input === ''
            ? `请选择${who}与本人关系`
            : CREDIT_MESSAGES.contactRelationship(index),
      }),
      name: text(`${who}姓名`)
        .min(1, `请填写${who}姓名`)
        .max(20, CREDIT_MESSAGES.contactName(index))
        .regex(CONTACT_NAME_PATTERN, CREDIT_MESSAGES.contactName(index)),
      phone: text(`${who}手机号`)
        .min(1, `请填写${who}手机号`)
        .max(11, CREDIT_MESSAGES.contactPhone(index))
        .regex(PHONE_PATTERN, CREDIT_MESSAGES.contactPhone(index)),
    },
    { error: (iss) => (isMissing(iss.input) ? `请填写${who}` : `${who}格式不正确`) },
  );
}

/**
 * The two contacts, validated as a pair: exactly two complete entries, not the same phone twice.
 * The person's own phone is refused by the server, which knows it (contactPairProblems with
 * `isOwnPhone`).
 */
export const contactsSchema = z
  .tuple([contact(0), contact(1)], { error: CREDIT_MESSAGES.contactsPair })
  .superRefine((pair, ctx) => {
    for (const p of contactPairProblems(pair)) {
      ctx.addIssue({ code: 'custom', path: [p.index, p.field], message: p.message });
    }
  });

const creditFields = {
  education: option('education'),
  maritalStatus: option('maritalStatus'),
  annualIncome: option('annualIncome'),
  occupation: option('occupation'),
  loanPurpose: option('loanPurpose'),
  residentialRegion: region('residentialRegion'),
  residentialAddress: limitedText('residentialAddress'),
  companyName: limitedText('companyName'),
  companyRegion: region('companyRegion'),
  companyAddress: limitedText('companyAddress'),
  contacts: contactsSchema,
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  Boolean(v) && typeof v === 'object' && !Array.isArray(v);

const creditObject = z.object(creditFields, { error: '请求数据必须是对象' });

/**
 * POST /api/app/userInfo/baseTempSave: any subset of the credit information (each given field
 * validated; empty values dropped, spec §5), merged into the stored record. `contacts`, when given,
 * is the whole pair. Unknown keys (auditStatus included: the face status is not the person's to set)
 * are ignored.
 */
const creditPatchObject = creditObject.partial();
export const creditInfoPatchBody = z.preprocess(
  (v) => (isPlainObject(v) ? cleanParams(v) : v),
  creditPatchObject,
);
export type CreditInfoPatch = z.infer<typeof creditPatchObject>;
/**
 * The body as a client sends it (the H5's wizard builds one step's fields): each field optional, no
 * null (the server drops empty values, so a field not picked is left out), `contacts` the whole pair.
 */
export type CreditInfoPatchBody = z.input<typeof creditPatchObject>;
/** The whole credit information (every field required): what DONE means. */
export const creditInfoComplete = creditObject;

export const creditWizardStepSchema = z.enum(CREDIT_WIZARD_STEPS);

const storedContact = z.object({ relationship: z.string(), name: z.string(), phone: z.string() });

/**
 * GET /api/app/userInfo/baseDetail: the stored fields (absent until given), contacts always as two
 * entries (blank until given, spec §4), in clear — only to their owner over this authenticated call —
 * with the face status (0 not started, 1 failed, 2 passed) and the wizard step computed by
 * creditWizardStep.
 */
export const creditInfoData = z.object({
  education: z.number().int().optional(),
  maritalStatus: z.number().int().optional(),
  annualIncome: z.number().int().optional(),
  occupation: z.number().int().optional(),
  loanPurpose: z.number().int().optional(),
  residentialRegion: z.string().optional(),
  residentialAddress: z.string().optional(),
  companyName: z.string().optional(),
  companyRegion: z.string().optional(),
  companyAddress: z.string().optional(),
  contacts: z.array(storedContact).length(2),
  auditStatus: z.number().int(),
  step: creditWizardStepSchema,
});
export type CreditInfoData = z.infer<typeof creditInfoData>;

/** POST /api/app/userInfo/baseTempSave answer: when it was saved and the wizard step after the save. */
export const baseTempSaveData = z.object({ savedAt: z.string(), step: creditWizardStepSchema });
export type BaseTempSaveData = z.infer<typeof baseTempSaveData>;
