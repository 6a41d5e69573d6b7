import type { LoggerOptions } from 'pino';

/** Query keys whose values never reach the log. */
const SENSITIVE_QUERY =
  /^(phone|mobile|encryptionMobile|rsaPhone|rp|identity|idCard|realName|name|code|token|accessToken)$/i;

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
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
