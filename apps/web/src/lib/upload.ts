/**
 * Uploads (spec §7 "Upload policy call", §5 file rules): ask the API for a signed POST policy, post
 * the file straight to the policy's host (our API's local store, or the Aliyun OSS bucket), answer
 * the object's URL `${host}/${key}`.
 *
 * - The file name is 6 random characters + the timestamp + the original name without the characters
 *   spec §5 removes (space, quotes, # % & + , : ; < = > ? @ \ |).
 * - Over 10MB: the spec's toast, before any request.
 * - Private folders (ID cards, faces, CRM ID cards, feedback) are not readable at their URL; show them
 *   with `loadPrivateImage(url)` (the owner's token, through `/api/storage/<key>`).
 */
import {
  SNIFF_BYTES,
  sniffImageType,
  UPLOAD_MAX_BYTES,
  UPLOAD_NAME_FORBIDDEN,
  UPLOAD_TOO_LARGE_MSG,
  type UploadFolder,
  type UploadPolicyData,
} from '@lm/shared/upload';
import { api } from './api-client';
import { getToken } from './session';
import { toast } from './toast';

export const UPLOAD_POLICY_PATH = '/api/common/upload/policy';
/** Where the API serves objects (both stores): private ones need the owner's token. */
export const STORAGE_READ_PATH = '/api/storage';
/** A 10MB photo over a slow mobile link takes longer than the API's 10 s. */
export const UPLOAD_TIMEOUT_MS = 60_000;
export const ERROR_TOAST_MS = 3_000;
/** Longest cleaned name kept (its extension is kept when cut). */
export const NAME_MAX_CHARS = 60;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const FAILED_MSG = '上传失败，请重试';
const TIMEOUT_MSG = '上传超时，请重试';
const NETWORK_MSG = '网络连接错误';

export class UploadError extends Error {
  override name = 'UploadError';
}

/** The original name without the characters of spec §5 (and runs of dots), at most 60 characters. */
export function cleanFileName(name: string): string {
  const cleaned = name.replace(UPLOAD_NAME_FORBIDDEN, '').replace(/\.{2,}/g, '.');
  const chars = [...cleaned];
  if (chars.length <= NAME_MAX_CHARS) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return chars.slice(0, NAME_MAX_CHARS - [...ext].length).join('') + ext;
}

/** `length` characters of [A-Za-z0-9] from the browser's CSPRNG (no modulo bias). */
export function randomPrefix(length = 6): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** 6 random characters + timestamp + cleaned original name (spec §7). */
export function buildUploadFileName(original: string, now = Date.now(), random = randomPrefix()): string {
  return `${random}${now}${cleanFileName(original)}`;
}

/** The image type by the file's first bytes (camera files in webviews often have no type). */
export async function detectImageType(file: Blob): Promise<string> {
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  return sniffImageType(head) ?? file.type;
}

function fail(msg: string): never {
  toast.show({ content: msg, duration: ERROR_TOAST_MS });
  throw new UploadError(msg);
}

/** The refusal's message: our envelope's `msg` (Chinese); OSS's XML errors get the generic text. */
function refusalMessage(text: string): string {
  try {
    const value = JSON.parse(text) as { msg?: unknown };
    if (typeof value?.msg === 'string' && value.msg) return value.msg;
  } catch {
    // OSS answers XML (<Error><Code>…), in English.
  }
  return FAILED_MSG;
}

export interface UploadOptions {
  /** Honoured for public folders (avatar); the others are always private. */
  isPrivate?: boolean;
  signal?: AbortSignal;
}

/**
 * Uploads `file` into `folder`; resolves with the object's URL (`${host}/${key}`), the value the
 * other calls (OCR, face verification …) take. Toasts and rejects with an UploadError on failure.
 */
export async function uploadFile(
  file: File,
  folder: UploadFolder,
  options: UploadOptions = {},
): Promise<string> {
  if (file.size > UPLOAD_MAX_BYTES) fail(UPLOAD_TOO_LARGE_MSG);
  const contentType = await detectImageType(file);

  const policy = await api.get<UploadPolicyData>(UPLOAD_POLICY_PATH, {
    params: { image: folder, ...(options.isPrivate ? { isPrivate: true } : {}) },
    cancelPrevious: false,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const key = `${policy.dir}${buildUploadFileName(file.name)}`;

  // OSS reads the fields before the file, and ignores any after it.
  const form = new FormData();
  form.append('key', key);
  form.append('policy', policy.policy);
  form.append('OSSAccessKeyId', policy.accessKeyId);
  form.append('success_action_status', '200');
  form.append('signature', policy.signature);
  form.append('Content-Type', contentType);
  form.append('file', file);

  // (AbortSignal.timeout / any are missing from older webviews.)
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, UPLOAD_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort);
  let res: Response;
  try {
    res = await fetch(policy.host, { method: 'POST', body: form, signal: controller.signal });
  } catch {
    if (options.signal?.aborted) throw new UploadError('canceled');
    fail(timedOut ? TIMEOUT_MSG : NETWORK_MSG);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (!res.ok) fail(refusalMessage(await res.text().catch(() => '')));
  return `${policy.host}/${key}`;
}

/** `/api/storage/<key>` for an object URL of either store (the key is the URL's path). */
export function storageReadPath(url: string): string {
  const path = /^https?:\/\//i.test(url) ? new URL(url).pathname : url.split(/[?#]/)[0]!;
  return path.startsWith(`${STORAGE_READ_PATH}/`) ? path : `${STORAGE_READ_PATH}${path}`;
}

/**
 * A private image the person uploaded, as an object URL for `<img src>` (revoke it when done):
 * fetched with the token, since private objects answer 404 without it.
 */
export async function loadPrivateImage(url: string): Promise<string> {
  const token = getToken();
  const res = await fetch(storageReadPath(url), {
    headers: token ? { accessToken: token } : {},
    credentials: 'same-origin',
  });
  if (!res.ok) throw new UploadError('文件不存在');
  return URL.createObjectURL(await res.blob());
}
