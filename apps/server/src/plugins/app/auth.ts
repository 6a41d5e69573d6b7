import type { StaffRole } from '@lm/shared/schemas/auth';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { appError } from '../../lib/errors.ts';
import { KNOWN_DEVICE_HEADER, knownDeviceToken } from '../../modules/auth/rules.ts';
import type { ClientMeta } from '../../modules/auth/sms-codes.ts';

function headerToken(req: FastifyRequest): string | undefined {
  const value = req.headers.accesstoken;
  return Array.isArray(value) ? value[0] : value;
}

/** Who is calling: IP, device fingerprint and page channel (from the platform_param header), user agent. */
export function clientMeta(req: FastifyRequest): ClientMeta {
  const ua = req.headers['user-agent'];
  return {
    ip: req.ip,
    fingerprint: platformFingerprint(req.headers.platform_param),
    userAgent: typeof ua === 'string' ? ua : undefined,
    channelCode: platformChannelCode(req.headers.platform_param),
    knownDevice: knownDeviceToken(req.headers[KNOWN_DEVICE_HEADER]),
  };
}

/**
 * The device fingerprint the H5 sends in its `platform_param` header (JSON, `fingerprint`), at most 128
 * characters; undefined without one, or for a malformed or over-long header.
 */
export function platformFingerprint(raw: string | string[] | undefined): string | undefined {
  if (typeof raw !== 'string' || raw.length >= 2048) return undefined;
  try {
    const parsed = JSON.parse(raw) as { fingerprint?: unknown };
    if (typeof parsed.fingerprint === 'string' && parsed.fingerprint.length > 0) {
      return parsed.fingerprint.slice(0, 128);
    }
  } catch {
    // A malformed header is treated as no fingerprint.
  }
  return undefined;
}

/** A channel code as ad links carry it (channelCodeSchema's rule). */
const CHANNEL_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The channel of the page the H5 calls from (`platform_param` header, `currentChannelCode`) when it is a
 * well-formed channel code; undefined otherwise (ADR 057: the SMS it asks for is signed by its operator).
 */
export function platformChannelCode(raw: string | string[] | undefined): string | undefined {
  if (typeof raw !== 'string' || raw.length >= 2048) return undefined;
  try {
    const code = (JSON.parse(raw) as { currentChannelCode?: unknown } | null)?.currentChannelCode;
    return typeof code === 'string' && CHANNEL_CODE.test(code) ? code : undefined;
  } catch {
    // A malformed header names no channel.
    return undefined;
  }
}

/** Who a hook of this module lets through; the API document derives 401 / 403 from it (plugins/external/swagger.ts). */
export type AuthRequirement = { kind: 'user' } | { kind: 'staff'; roles: readonly StaffRole[] };
const requirements = new WeakMap<object, AuthRequirement>();

/** What `hook` demands when it is `requireUser` or made by `requireStaff`; undefined for any other function. */
export function authRequirementOf(hook: unknown): AuthRequirement | undefined {
  return typeof hook === 'function' ? requirements.get(hook) : undefined;
}

/** preHandler: the person behind `accessToken`, or 401 / 1005 / 1006. */
export async function requireUser(this: unknown, req: FastifyRequest) {
  const { sessionId, user } = await req.server.services.auth.authenticate(headerToken(req));
  req.user = user;
  req.sessionId = sessionId;
}
requirements.set(requireUser, { kind: 'user' });

/** preHandler factory: a staff member with one of `roles`, or 401 / 1005 / 1007 / 403. */
export function requireStaff(roles: readonly StaffRole[] = ['admin', 'operator', 'viewer']) {
  const hook = async (req: FastifyRequest) => {
    const { sessionId, staff } = await req.server.services.staff.authenticate(headerToken(req));
    if (!roles.includes(staff.role)) throw appError('FORBIDDEN');
    req.staffMember = staff;
    req.staffSessionId = sessionId;
  };
  requirements.set(hook, { kind: 'staff', roles });
  return hook;
}

export default fp(
  async (app) => {
    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', null);
    app.decorateRequest('staffMember', null);
    app.decorateRequest('staffSessionId', null);
  },
  { name: 'auth' },
);
