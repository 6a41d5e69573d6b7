import type { LoggerOptions } from 'pino';

const SENSITIVE_KEYS =
  'phone|mobile|encryptionMobile|rsaPhone|rp|identity|idCard|realName|name|code|token|accessToken';
/** Query keys whose values never reach the log. */
const SENSITIVE_QUERY = new RegExp(`^(${SENSITIVE_KEYS})$`, 'i');
/**
 * A query that may hold such a key: one of them as a key as written, or any percent-encoding (a key can be
 * encoded, `%70hone`). Any other query is logged as it is, without parsing it (the ad burst's requests).
 */
const MAYBE_SENSITIVE = new RegExp(`(?:^|[?&;])(?:${SENSITIVE_KEYS})(?:[=&;]|$)|%`, 'i');

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  if (!MAYBE_SENSITIVE.test(url.slice(q))) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SENSITIVE_QUERY.test(key)) params.set(key, '[REDACTED]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** Paths pino redacts wherever such fields appear in a logged object (two levels deep). */
export const REDACT_PATHS = [
  'req.headers.accesstoken',
  'req.headers.authorization',
  'req.headers.cookie',
  ...[
    'phone',
    'mobile',
    'encryptionMobile',
    'identity',
    'idCard',
    'realName',
    'name',
    'token',
    'password',
    'code',
  ].flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: REDACT_PATHS.filter((p) => p !== 'code' && p !== '*.code' && p !== '*.*.code'),
      censor: '[REDACTED]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}
