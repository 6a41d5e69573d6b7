import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Lead delivery signatures (docs/matching-consent-delivery.md): HMAC-SHA256 over
 * `<unix seconds>.<raw body>` with the partner's secret, sent as `X-LM-Signature: sha256=<hex>` with
 * `X-LM-Timestamp`. The same scheme signs partner callbacks to us.
 */
export const SIGNATURE_HEADER = 'x-lm-signature';
export const TIMESTAMP_HEADER = 'x-lm-timestamp';
/** Signatures older or newer than this are refused (replay window). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function sign(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export type SignatureProblem = 'missing' | 'stale' | 'mismatch';

/** null when `signature` is the signature of `body` at `timestamp` within the tolerance of `nowMs`. */
export function verifySignature(
  secret: string,
  timestampHeader: string | undefined,
  signature: string | undefined,
  body: string,
  nowMs: number,
): SignatureProblem | null {
  if (!timestampHeader || !signature) return 'missing';
  const ts = Number(timestampHeader);
  if (!Number.isInteger(ts)) return 'missing';
  if (Math.abs(nowMs / 1000 - ts) > SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  const expected = Buffer.from(sign(secret, ts, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? null : 'mismatch';
}

/** How long the secret before a rotation stays valid for partner callbacks (docs/matching-consent-delivery.md). */
export const SECRET_GRACE_MS = 24 * 3600_000;

/** Until when the previous secret is accepted after a rotation at `rotatedAt`. */
export function previousSecretValidUntil(rotatedAt: Date | null | undefined): Date | null {
  return rotatedAt ? new Date(rotatedAt.getTime() + SECRET_GRACE_MS) : null;
}

export interface PartnerSecrets {
  current: string;
  /** The secret before the last rotation (null when never rotated). */
  previous: string | null;
  rotatedAt: Date | null;
}

/**
 * verifySignature with the current secret, else — within SECRET_GRACE_MS of the last rotation — with
 * the previous one, so a lender that has not switched yet keeps working for a day. Deliveries always
 * sign with the current secret.
 */
export function verifyWithRotation(
  secrets: PartnerSecrets,
  timestampHeader: string | undefined,
  signature: string | undefined,
  body: string,
  nowMs: number,
): SignatureProblem | null {
  const problem = verifySignature(secrets.current, timestampHeader, signature, body, nowMs);
  if (problem !== 'mismatch' || !secrets.previous) return problem;
  const until = previousSecretValidUntil(secrets.rotatedAt);
  if (!until || nowMs >= until.getTime()) return problem;
  return verifySignature(secrets.previous, timestampHeader, signature, body, nowMs);
}

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** 0.2 = ±20 %. */
  jitter: number;
}

/**
 * Delay before attempt `attempt + 1` after `attempt` failed (1-based): base · 2^(attempt-1), capped at
 * max, spread by ±jitter with `random` in [0, 1).
 */
export function backoffMs(attempt: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const exp = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt - 1));
  const spread = exp * opts.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(exp + spread));
}
