import { z } from 'zod';
import { checkIdCard, ID_CARD_MESSAGES } from '../validators/id-card.ts';
import { REAL_NAME_MSG, REAL_NAME_PATTERN } from './application.ts';

/**
 * Credit process, identity part (issue 5): ID-card OCR and face verification. Both take a picture
 * the person uploaded through the upload policy — its URL (`host/key`) or its object key.
 */

export const IMAGE_REQUIRED_MSG = '请先上传图片';

/** The uploaded picture: the URL the upload produced (`${host}/${key}`) or the object key. */
export const uploadedImageSchema = z
  .string({ error: IMAGE_REQUIRED_MSG })
  .trim()
  .min(1, IMAGE_REQUIRED_MSG)
  .max(1024, '图片地址过长');

/** `POST /api/app/userInfo/getOcrResultByIDCardPic`: the front (portrait side) of the ID card. */
export const ocrIdCardBody = z.object({ image: uploadedImageSchema }, { error: '请求数据必须是对象' });
export type OcrIdCardBody = z.infer<typeof ocrIdCardBody>;

/**
 * What was read, to pre-fill the form for the person to confirm (never a verification).
 * `valid`: the number passes the GB 11643 checks (region, birth date, checksum).
 */
export const ocrIdCardData = z.object({
  realName: z.string().nullable(),
  identity: z.string().nullable(),
  valid: z.boolean(),
  /** `local-ocr`: read on the server (offline engine); `provider`: a cloud OCR service. */
  method: z.enum(['local-ocr', 'provider']),
  note: z.string(),
});
export type OcrIdCardData = z.infer<typeof ocrIdCardData>;

/** Face status (spec §3): 0 not started, 1 failed, 2 passed. */
export const faceStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);

const optionalName = z
  .string({ error: '真实姓名必须是文本' })
  .trim()
  .max(20, REAL_NAME_MSG)
  .regex(REAL_NAME_PATTERN, REAL_NAME_MSG)
  .optional();
const optionalIdentity = z
  .string({ error: '身份证号必须是文本' })
  .trim()
  .max(18, ID_CARD_MESSAGES.format)
  .toUpperCase()
  .superRefine((value, ctx) => {
    const problem = checkIdCard(value);
    if (problem) ctx.addIssue({ code: 'custom', message: ID_CARD_MESSAGES[problem] });
  })
  .optional();

/**
 * `POST /api/app/userInfo/faceVerify` and `POST /api/user/info/faceVerify`: the selfie (folder
 * `face`). The name and number are optional: a verification service that compares the face with
 * the ID photo needs them (otherwise the saved application form's are used).
 */
export const faceVerifyBody = z
  .object(
    { image: uploadedImageSchema, realName: optionalName, identity: optionalIdentity },
    { error: '请求数据必须是对象' },
  )
  .refine((b) => (b.realName === undefined) === (b.identity === undefined), {
    message: '姓名和身份证号须同时提供',
    path: ['identity'],
  });
export type FaceVerifyBody = z.infer<typeof faceVerifyBody>;

export const faceVerifyData = z.object({
  /** The face status now stored for the person: 2 passed, 1 failed. */
  auditStatus: faceStatusSchema,
  passed: z.boolean(),
  /** true / false only when a service compared the face with the ID photo; null otherwise. */
  identityVerified: z.boolean().nullable(),
  /** `local-detection`: face detection on the server; `provider`: a face-verification service. */
  method: z.enum(['local-detection', 'provider']),
  /** Why it failed, in Chinese (empty when passed). */
  reasons: z.array(z.string()),
  /** What was and was not checked. */
  note: z.string(),
});
export type FaceVerifyData = z.infer<typeof faceVerifyData>;
