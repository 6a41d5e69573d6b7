import { z } from 'zod';
import { UPLOAD_FOLDER_KEYS } from '../upload.ts';
import { flagSchema } from './common.ts';

/** `GET /api/common/upload/policy?image=<folder>&isPrivate=<bool>` (spec §7). */
export const uploadPolicyQuery = z.object({
  image: z.enum(UPLOAD_FOLDER_KEYS, {
    error: (issue) =>
      issue.input === undefined
        ? '请指定上传目录'
        : `不支持的上传目录，可选：${UPLOAD_FOLDER_KEYS.join('、')}`,
  }),
  /** Ignored (true) for the always-private folders: ID cards, faces, the CRM ID-card folder. */
  isPrivate: flagSchema.optional(),
});

export const uploadPolicyData = z.object({
  accessKeyId: z.string(),
  dir: z.string(),
  policy: z.string(),
  signature: z.string(),
  host: z.string(),
  expire: z.number().int(),
});

/** `POST /api/storage` (local store) with `success_action_status` 200 or 201: the stored object. */
export const storedObjectData = z.object({
  key: z.string(),
  url: z.string(),
  size: z.number().int(),
  contentType: z.string(),
});
