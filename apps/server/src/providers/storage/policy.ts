import { createHmac, randomBytes } from 'node:crypto';
import { shanghaiCompactDate } from '@lm/shared/time';
import { IMAGE_CONTENT_TYPES, UPLOAD_FOLDERS, type UploadFolder } from '@lm/shared/upload';
import { constantTimeEqual } from '../../lib/crypto.ts';
import type { PolicyRequest, UploadPolicy } from './types.ts';

/**
 * Pure helpers of the upload policy (Aliyun OSS PostObject, signature v1), shared by the local store
 * and the OSS adapter, and the key layout that carries the owner:
 *
 *   `<public|private>/<folder>/<yyyymmdd>/<u|s><id>-<12 hex>/<file name>`
 *
 * The dir is inside the signed policy, so the owner in it cannot be forged, and an upload needs no
 * token (as on OSS). The first segment lets an OSS bucket grant anonymous read on `public/*` only.
 */

/** base64(HMAC-SHA1(secret, text)): OSS v1 signature of a POST policy, a header or a signed URL. */
export function ossSign(secret: string, text: string): string {
  return createHmac('sha1', secret).update(text, 'utf8').digest('base64');
}

/** OSS v1 string to sign (header and URL signatures; for a URL, `date` is the Expires value). */
export function ossStringToSign(p: {
  verb: string;
  contentMd5?: string;
  contentType?: string;
  date: string;
  ossHeaders?: Record<string, string>;
  resource: string;
}): string {
  const headers = Object.entries(p.ossHeaders ?? {})
    .map(([k, v]) => [k.toLowerCase().trim(), v.trim()] as const)
    .filter(([k]) => k.startsWith('x-oss-'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}:${v}\n`)
    .join('');
  return `${p.verb}\n${p.contentMd5 ?? ''}\n${p.contentType ?? ''}\n${p.date}\n${headers}${p.resource}`;
}

export type PolicyCondition =
  | Record<string, string>
  | ['content-length-range', number, number]
  | [string, string, string | string[]];

export interface PolicyDocument {
  expiration: string;
  conditions: PolicyCondition[];
}

/** The policy document for a request: expiration, size range, key prefix, content types. */
export function policyDocument(req: PolicyRequest, now: Date = new Date()): PolicyDocument {
  return {
    // Whole seconds, so `expire` (unix seconds) names the same instant.
    expiration: new Date((Math.floor(now.getTime() / 1000) + req.expiresInSeconds) * 1000).toISOString(),
    conditions: [
      ['content-length-range', 1, req.maxBytes],
      ['starts-with', '$key', req.dir],
      ['in', '$content-type', [...req.contentTypes]],
    ],
  };
}

export interface PolicyCredentials {
  accessKeyId: string;
  accessKeySecret: string;
  host: string;
}

/** The signed policy the browser receives. */
export function signedPolicy(req: PolicyRequest, creds: PolicyCredentials, now = new Date()): UploadPolicy {
  const doc = policyDocument(req, now);
  const policy = Buffer.from(JSON.stringify(doc), 'utf8').toString('base64');
  return {
    accessKeyId: creds.accessKeyId,
    dir: req.dir,
    policy,
    signature: ossSign(creds.accessKeySecret, policy),
    host: creds.host,
    expire: Math.floor(new Date(doc.expiration).getTime() / 1000),
  };
}

// --- key layout --------------------------------------------------------------------------------

export type Visibility = 'public' | 'private';
export interface UploadOwner {
  kind: 'user' | 'staff';
  id: number;
}

export interface ParsedKey {
  visibility: Visibility;
  folder: UploadFolder;
  /** yyyymmdd (Asia/Shanghai) of the policy. */
  day: string;
  owner: UploadOwner;
  /** The policy's dir (ends with '/'). */
  dir: string;
  /** What follows the dir (empty for a dir itself). */
  name: string;
}

/** A fresh dir for one policy: one person's policy cannot name another person's space. */
export function uploadDir(p: {
  visibility: Visibility;
  folder: UploadFolder;
  owner: UploadOwner;
  now?: Date;
  random?: string;
}): string {
  const tag = `${p.owner.kind === 'user' ? 'u' : 's'}${p.owner.id}`;
  const random = p.random ?? randomBytes(6).toString('hex');
  return `${p.visibility}/${p.folder}/${shanghaiCompactDate(p.now ?? new Date())}/${tag}-${random}/`;
}

const KEY_PATTERN = /^(public|private)\/([a-z0-9-]{1,32})\/(\d{8})\/([us])(\d{1,15})-([0-9a-f]{12})\/(.*)$/s;

/** The parts of a key or dir of this layout, or null (unknown folder, other layout). */
export function parseUploadKey(key: string): ParsedKey | null {
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  const [, visibility, folder, day, kind, id, random, name] = m as unknown as string[];
  if (!Object.hasOwn(UPLOAD_FOLDERS, folder!)) return null;
  const owner: UploadOwner = { kind: kind === 'u' ? 'user' : 'staff', id: Number(id) };
  if (!Number.isSafeInteger(owner.id)) return null;
  return {
    visibility: visibility as Visibility,
    folder: folder as UploadFolder,
    day: day!,
    owner,
    dir: `${visibility}/${folder}/${day}/${kind}${id}-${random}/`,
    name: name!,
  };
}

/** Largest key accepted (OSS allows 1023 bytes; ours are far shorter). */
export const MAX_KEY_BYTES = 512;

/** Largest path segment (file systems allow 255 bytes per name). */
export const MAX_SEGMENT_BYTES = 200;

/**
 * Whether a key is safe as a path below the store's root and as the tail of `${host}/${key}`: no
 * `..`, no empty segment, no backslash, no control characters, no % ? # (URL syntax), not too long.
 */
export function isSafeKey(key: string): boolean {
  if (!key || Buffer.byteLength(key) > MAX_KEY_BYTES) return false;
  if (key.split('/').some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) return false;
  if (key.includes('..') || key.startsWith('/') || key.endsWith('/') || key.includes('//')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters
  return !/[\\%?#\u0000-\u001f\u007f]/.test(key);
}

// --- checking a POST form (local store) -------------------------------------------------------------

export type FormRefusal =
  | { reason: 'missing-field'; field: string }
  | { reason: 'bad-signature' }
  | { reason: 'malformed-policy' }
  | { reason: 'expired' }
  | { reason: 'bad-key' }
  | { reason: 'key-outside-dir' }
  | { reason: 'type-not-allowed' }
  | { reason: 'condition-failed'; field: string };

export interface AcceptedForm {
  key: string;
  dir: string;
  contentType: string;
  minBytes: number;
  maxBytes: number;
  doc: PolicyDocument;
}

/**
 * Checks the fields of a PostObject form as OSS does: access key id and signature first (constant
 * time), then the policy: expiration and every condition (eq, starts-with, in, not-in,
 * content-length-range; the size itself is checked while the file streams). `fields` has lower-case
 * names (OSS form field names are case-insensitive); `content-type` falls back to the file part's type.
 */
export function checkPostForm(
  fields: ReadonlyMap<string, string>,
  creds: { accessKeyId: string; accessKeySecret: string },
  now: Date = new Date(),
): { ok: true; form: AcceptedForm } | ({ ok: false } & FormRefusal) {
  for (const field of ['key', 'policy', 'ossaccesskeyid', 'signature']) {
    if (!fields.get(field)) return { ok: false, reason: 'missing-field', field };
  }
  const policy = fields.get('policy')!;
  const expected = ossSign(creds.accessKeySecret, policy);
  const idOk = constantTimeEqual(fields.get('ossaccesskeyid')!, creds.accessKeyId);
  const sigOk = constantTimeEqual(fields.get('signature')!, expected);
  if (!idOk || !sigOk) return { ok: false, reason: 'bad-signature' };

  const doc = decodePolicy(policy);
  if (!doc) return { ok: false, reason: 'malformed-policy' };
  const expires = Date.parse(doc.expiration);
  if (!Number.isFinite(expires)) return { ok: false, reason: 'malformed-policy' };
  if (expires <= now.getTime()) return { ok: false, reason: 'expired' };

  const key = fields.get('key')!;
  if (!isSafeKey(key)) return { ok: false, reason: 'bad-key' };

  let minBytes = 0;
  let maxBytes = Number.POSITIVE_INFINITY;
  let dir: string | null = null;
  for (const cond of doc.conditions) {
    if (Array.isArray(cond)) {
      const [op, rawField, value] = cond as [unknown, unknown, unknown];
      if (op === 'content-length-range') {
        const [, min, max] = cond as unknown[];
        if (typeof min !== 'number' || typeof max !== 'number')
          return { ok: false, reason: 'malformed-policy' };
        minBytes = Math.max(minBytes, min);
        maxBytes = Math.min(maxBytes, max);
        continue;
      }
      if (typeof op !== 'string' || typeof rawField !== 'string' || !rawField.startsWith('$')) {
        return { ok: false, reason: 'malformed-policy' };
      }
      const field = rawField.slice(1).toLowerCase();
      const actual = fields.get(field) ?? '';
      let pass: boolean;
      switch (op.toLowerCase()) {
        case 'eq':
          pass = actual === value;
          break;
        case 'starts-with':
          pass = typeof value === 'string' && actual.startsWith(value);
          if (field === 'key' && typeof value === 'string') dir = value;
          break;
        case 'in':
          pass = Array.isArray(value) && value.includes(actual);
          break;
        case 'not-in':
          pass = Array.isArray(value) && !value.includes(actual);
          break;
        default:
          return { ok: false, reason: 'malformed-policy' };
      }
      if (!pass) {
        if (field === 'key') return { ok: false, reason: 'key-outside-dir' };
        if (field === 'content-type') return { ok: false, reason: 'type-not-allowed' };
        return { ok: false, reason: 'condition-failed', field };
      }
    } else if (cond && typeof cond === 'object') {
      for (const [name, value] of Object.entries(cond)) {
        const field = name.toLowerCase();
        if (field === 'bucket') continue; // one store, no bucket
        if ((fields.get(field) ?? '') !== value) {
          if (field === 'key') return { ok: false, reason: 'key-outside-dir' };
          return { ok: false, reason: 'condition-failed', field };
        }
      }
    } else {
      return { ok: false, reason: 'malformed-policy' };
    }
  }
  // Our store only takes keys below a dir of our layout: the owner comes from it.
  if (!dir || !parseUploadKey(dir) || parseUploadKey(dir)!.name !== '') {
    return { ok: false, reason: 'malformed-policy' };
  }
  const contentType = fields.get('content-type') ?? '';
  if (!(IMAGE_CONTENT_TYPES as readonly string[]).includes(contentType)) {
    return { ok: false, reason: 'type-not-allowed' };
  }
  return { ok: true, form: { key, dir, contentType, minBytes, maxBytes, doc } };
}

export function decodePolicy(policy: string): PolicyDocument | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(policy)) return null;
  try {
    const doc = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as unknown;
    if (!doc || typeof doc !== 'object') return null;
    const { expiration, conditions } = doc as Record<string, unknown>;
    if (typeof expiration !== 'string' || !Array.isArray(conditions)) return null;
    return { expiration, conditions: conditions as PolicyCondition[] };
  } catch {
    return null;
  }
}

export { SNIFF_BYTES, sniffImageType } from '@lm/shared/upload';
