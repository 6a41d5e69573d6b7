/**
 * Uploads (spec §5 file rules, §7 upload policy). No zod here: the H5 imports these constants.
 * The server's query schema is in `schemas/upload.ts`.
 */

/** Spec §5 / §9: files for upload and reading are at most 10MB. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** The spec's toast for a file over the limit. */
export const UPLOAD_TOO_LARGE_MSG = '文件大小不能超过10MB';

/** Content types every folder accepts (checked against the file's first bytes on the local store). */
export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number];

export type Uploader = 'user' | 'staff';

export interface UploadFolderRule {
  /** Always private, whatever `isPrivate` says; otherwise private only when `isPrivate` is true. */
  alwaysPrivate: boolean;
  /** Who may ask for a policy on this folder. */
  uploaders: readonly Uploader[];
}

/**
 * The folder keys (`image` parameter) a policy can be asked for. ID cards (including the CRM ID-card
 * folder, spec §7) and faces are always private; feedback screenshots too (they show personal data).
 */
export const UPLOAD_FOLDERS = {
  idcard: { alwaysPrivate: true, uploaders: ['user'] },
  face: { alwaysPrivate: true, uploaders: ['user'] },
  'crm-idcard': { alwaysPrivate: true, uploaders: ['user', 'staff'] },
  feedback: { alwaysPrivate: true, uploaders: ['user'] },
  avatar: { alwaysPrivate: false, uploaders: ['user'] },
} as const satisfies Record<string, UploadFolderRule>;

export type UploadFolder = keyof typeof UPLOAD_FOLDERS;
export const UPLOAD_FOLDER_KEYS = Object.keys(UPLOAD_FOLDERS) as [UploadFolder, ...UploadFolder[]];

/**
 * Characters removed from file names (spec §5: space, quotes, # % & + , : ; < = > ? @ \ |), plus
 * every other whitespace, control characters and '/' so a name can never add a path segment.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
export const UPLOAD_NAME_FORBIDDEN = /[\s'"`#%&+,:;<=>?@\\|/\u0000-\u001f\u007f]/g;

/** The answer of `GET /api/common/upload/policy` (Aliyun OSS POST policy, signature v1). */
export interface UploadPolicyData {
  /** `OSSAccessKeyId` form field. */
  accessKeyId: string;
  /** Key prefix the upload must use (ends with '/'). */
  dir: string;
  /** base64 JSON policy. */
  policy: string;
  /** base64 HMAC-SHA1 of `policy` (`signature` form field). */
  signature: string;
  /** Where to POST the form; the object's URL is `${host}/${key}`. */
  host: string;
  /** Unix seconds after which the policy is refused. */
  expire: number;
}

/** Bytes `sniffImageType` needs. */
export const SNIFF_BYTES = 12;

/** JPEG (FF D8 FF), PNG (89 'PNG' 0D 0A 1A 0A) or WebP ('RIFF' …. 'WEBP') from a file's first bytes. */
export function sniffImageType(head: Uint8Array): ImageContentType | null {
  const b = head;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length >= 8 && png.every((v, i) => b[i] === v)) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}
