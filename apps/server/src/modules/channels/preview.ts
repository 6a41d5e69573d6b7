/**
 * Live preview of an unsaved channel (issue 7): the console posts its form and gets a token; the H5,
 * framed in the console at `/?previewToken=…`, asks h5Config with it and is answered the draft's
 * configuration. The token carries the draft itself, signed with a keyed hash (HMAC) and valid for
 * 30 minutes, so nothing is stored and any instance can answer it.
 */
import { blindIndex, constantTimeEqual, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import type { ChannelRow, ChannelSource } from './rules.ts';

export const PREVIEW_TTL_MS = 30 * 60_000;
export const PREVIEW_INVALID_MSG = '预览链接无效，请在后台重新打开预览';
export const PREVIEW_EXPIRED_MSG = '预览链接已过期，请在后台刷新预览';

/** What the preview shows: the channel row fields the H5 configuration is built from. */
export type PreviewDraft = Pick<
  ChannelRow,
  | 'adChannelCode'
  | 'name'
  | 'channelStatus'
  | 'linkType'
  | 'flags'
  | 'excludeCityCodes'
  | 'planTargetUrl'
  | 'pageTitle'
  | 'pageIcon'
  | 'needsLocation'
  | 'trackReport'
  | 'allowedHosts'
> &
  Pick<ChannelSource, 'operator'>;

interface PreviewPayload {
  v: 1;
  /** Expiry, epoch milliseconds. */
  exp: number;
  /** The skin to show. */
  skin: number;
  d: PreviewDraft;
}

const sign = (ring: KeyRing, body: string) => blindIndex(ring, 'channel-preview', body);

export function signPreview(
  ring: KeyRing,
  draft: PreviewDraft,
  skin: number,
  now = Date.now(),
): { token: string; expiresAt: Date } {
  const exp = now + PREVIEW_TTL_MS;
  const payload: PreviewPayload = { v: 1, exp, skin, d: draft };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return { token: `${body}.${sign(ring, body)}`, expiresAt: new Date(exp) };
}

/** The draft of a valid token; 401 for a forged or expired one. */
export function verifyPreview(
  ring: KeyRing,
  token: string,
  now = Date.now(),
): { draft: PreviewDraft; skin: number } {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined || !constantTimeEqual(mac, sign(ring, body)))
    throw appError('BAD_SIGNATURE', PREVIEW_INVALID_MSG);
  let payload: PreviewPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PreviewPayload;
  } catch {
    throw appError('BAD_SIGNATURE', PREVIEW_INVALID_MSG);
  }
  if (payload?.v !== 1 || typeof payload.exp !== 'number' || !payload.d)
    throw appError('BAD_SIGNATURE', PREVIEW_INVALID_MSG);
  if (payload.exp <= now) throw appError('BAD_SIGNATURE', PREVIEW_EXPIRED_MSG);
  return { draft: payload.d, skin: payload.skin };
}

/** A channel row for `buildH5Config` from a preview draft. */
export function previewRow(draft: PreviewDraft): ChannelSource {
  const now = new Date();
  return { ...draft, id: 0, skinArms: null, operatorId: null, createdAt: now, updatedAt: now };
}
