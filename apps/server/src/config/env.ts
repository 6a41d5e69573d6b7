import { isIP } from 'node:net';
import { SMS_SIGNATURE_MSG, SMS_SIGNATURE_PATTERN } from '@lm/shared/validators/operator';
import { z } from 'zod';
import { parseOriginList } from '../lib/outbound-address.ts';

/**
 * Configuration, parsed once at start-up. A bad or missing value stops the server with a list of
 * every problem (see `loadConfig`). The README lists each variable with its default.
 */
const intFromEnv = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(def);

/**
 * One TRUST_PROXY entry: an IPv4 or IPv6 address, or a CIDR range of either, that is not every
 * address (`0.0.0.0/0`, `::/0` would let any client choose its address). Returns a problem or null.
 */
export function trustedProxyProblem(entry: string): string | null {
  const [addr = '', prefix, ...rest] = entry.split('/');
  const family = isIP(addr);
  if (family === 0 || rest.length > 0) return `"${entry}" is not an IP address or CIDR range`;
  if (prefix === undefined) return null;
  const bits = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits)
    return `"${entry}": the prefix length must be 0 to ${bits}`;
  if (Number(prefix) === 0) return `"${entry}" is every address: list the proxies themselves`;
  return null;
}

/**
 * TRUST_PROXY: the reverse proxies (addresses or CIDR ranges, comma separated) whose X-Forwarded-For
 * is believed. A request from any other peer keeps its socket address, whatever header it sends.
 * Unset, `false`/`0`/`off`: no proxy is trusted. A bare `true` is refused: it would let every
 * client set its own address (and so escape the per-address limits) by sending the header.
 */
const trustProxyFromEnv = z
  .string()
  .default('false')
  .transform((raw, ctx): false | string[] => {
    const v = raw.trim();
    if (/^(false|0|off|no)$/i.test(v)) return false;
    if (/^(true|1|on|yes)$/i.test(v)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'list the proxy addresses or CIDR ranges (e.g. 127.0.0.1,10.0.1.0/24), not a bare yes: ' +
          'trusting every peer lets any client set its address with X-Forwarded-For',
      });
      return z.NEVER;
    }
    const entries = v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const problems = entries.map(trustedProxyProblem).filter((p): p is string => p !== null);
    if (entries.length === 0) problems.push('no address given');
    for (const message of problems) ctx.addIssue({ code: 'custom', message });
    return problems.length ? z.NEVER : entries;
  });

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: intFromEnv(8080, 0, 65535),
    HOST: z.string().min(1).default('0.0.0.0'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATABASE_POOL_SIZE: intFromEnv(10, 1, 200),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
    REDIS_KEY_PREFIX: z.string().default('lm:'),
    TRUST_PROXY: trustProxyFromEnv,
    /**
     * The internal listener for Prometheus metrics, /livez and /readyz (never the public port).
     * METRICS_PORT=0 opens none. Each process on a host (API instances, the worker) needs its own port.
     */
    METRICS_PORT: intFromEnv(9464, 0, 65535),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    /** SIGTERM: /readyz answers 503 at once; the listener closes after this delay (load balancers notice). */
    SHUTDOWN_DELAY_MS: intFromEnv(2000, 0, 120_000),
    /** Then requests in flight and deliveries get this long before they are cut (and claims released). */
    SHUTDOWN_TIMEOUT_MS: intFromEnv(10_000, 100, 300_000),
    BODY_LIMIT_BYTES: intFromEnv(1_048_576, 1024, 50 * 1_048_576),
    SESSION_TTL_HOURS: intFromEnv(24 * 7, 1, 24 * 365),
    STAFF_SESSION_TTL_HOURS: intFromEnv(12, 1, 24 * 30),

    SMS_PROVIDER: z.enum(['console', 'aliyun']).default('console'),
    SMS_CODE_TTL_SECONDS: intFromEnv(300, 60, 3600),
    SMS_IP_HOURLY_LIMIT: intFromEnv(30, 1),
    SMS_DEVICE_HOURLY_LIMIT: intFromEnv(10, 1),
    /**
     * HMAC key signing the proof-of-work challenges of code requests under pressure (ADR 055), at least 32
     * characters; derived from PII_INDEX_KEY when unset. ALTCHA_MAX_NUMBER: the counter range a client searches
     * (about half of it on average, SHA-256 each).
     */
    ALTCHA_HMAC_KEY: z.string().min(32, 'at least 32 characters').optional(),
    ALTCHA_MAX_NUMBER: intFromEnv(50_000, 1_000, 10_000_000),
    ALIYUN_SMS_ACCESS_KEY_ID: z.string().min(1).optional(),
    ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().min(1).optional(),
    /** Replaced by each operator's signature (OPERATOR_SMS_SIGNATURE for the configured one): refused if set. */
    ALIYUN_SMS_SIGN_NAME: z.string().min(1).optional(),
    ALIYUN_SMS_TEMPLATE_CODE: z.string().min(1).optional(),
    ALIYUN_SMS_ENDPOINT: z.string().min(1).default('dysmsapi.aliyuncs.com'),

    /** Reverse geolocation: `local` (offline: ip2region + city table) or `baidu` (Baidu Map web API). */
    GEO_PROVIDER: z.enum(['local', 'baidu']).default('local'),
    BAIDU_MAP_AK: z.string().min(1).optional(),

    /** Real-name check: `local` (format and checksum only) or `aliyun` (Aliyun market ID two-factor API). */
    REALNAME_PROVIDER: z.enum(['local', 'aliyun']).default('local'),
    REALNAME_APPCODE: z.string().min(1).optional(),

    /** ID-card OCR: `local` (tesseract.js, offline) or `tencent` (Tencent Cloud IDCardOCR). */
    OCR_PROVIDER: z.enum(['local', 'tencent']).default('local'),
    /** Face verification: `local` (face detection only, identity not verified) or `tencent` (人脸核身). */
    FACE_PROVIDER: z.enum(['local', 'tencent']).default('local'),
    /** Tencent Cloud API key pair (CAM), for OCR_PROVIDER / FACE_PROVIDER = tencent. */
    TENCENT_SECRET_ID: z.string().min(1).optional(),
    TENCENT_SECRET_KEY: z.string().min(1).optional(),
    /** Tencent Cloud region (X-TC-Region), e.g. ap-guangzhou; omitted when unset. */
    TENCENT_REGION: z
      .string()
      .regex(/^[a-z]+-[a-z]+(-\d+)?$/, 'must be a Tencent Cloud region, e.g. ap-guangzhou')
      .optional(),

    /** Uploads: `local` (the API plays OSS, files in DATA_DIR/uploads) or `aliyun-oss`. */
    STORAGE_PROVIDER: z.enum(['local', 'aliyun-oss']).default('local'),
    /** Public origin of the site (https://…), for absolute URLs such as the local store's host. */
    PUBLIC_BASE_URL: z
      .string()
      .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an http(s):// URL without query or fragment')
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
    OSS_ACCESS_KEY_ID: z.string().min(1).optional(),
    OSS_ACCESS_KEY_SECRET: z.string().min(1).optional(),
    OSS_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/, 'must be an OSS bucket name')
      .optional(),
    /** Region endpoint without scheme, e.g. oss-cn-hangzhou.aliyuncs.com. */
    OSS_ENDPOINT: z
      .string()
      .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'must be a host name without scheme (oss-cn-….aliyuncs.com)')
      .optional(),
    /** A domain bound to the bucket (https://…); object URLs then start with it. */
    OSS_PUBLIC_HOST: z.string().url().optional(),

    /** "kid:base64(32 bytes)" entries, comma separated; the first one encrypts, all decrypt. */
    PII_KEYS: z.string().optional(),
    /** base64(32 bytes): key of the blind index (HMAC) used to look people up by phone. */
    PII_INDEX_KEY: z.string().optional(),
    /** "source:base64key[:base64iv]" entries, comma separated: partners' encrypted-phone keys. */
    ENCRYPTED_MOBILE_KEYS: z.string().optional(),

    WEB_DIST: z.string().optional(),
    ADMIN_DIST: z.string().optional(),
    /** The OpenAPI document and Swagger UI at /api/docs: on by default, off by default in production. */
    API_DOCS: z.enum(['on', 'off']).optional(),

    /** Matching (docs/matching-consent-delivery.md). */
    MATCH_MAX_LENDERS: intFromEnv(3, 1, 20),
    MATCH_LOCKOUT_DAYS: intFromEnv(30, 0, 365),
    MATCH_PERIOD_DAYS: intFromEnv(30, 1, 365),
    DUP_CHECK_TIMEOUT_MS: intFromEnv(1500, 100, 10_000),

    /** Lead delivery: 'inline' runs the worker inside the API process; 'off' leaves it to `npm run worker`. */
    DELIVERY_WORKER: z.enum(['inline', 'off']).optional(),
    DELIVERY_MAX_ATTEMPTS: intFromEnv(8, 1, 50),
    DELIVERY_BACKOFF_BASE_MS: intFromEnv(2000, 10, 3_600_000),
    DELIVERY_BACKOFF_MAX_MS: intFromEnv(600_000, 10, 86_400_000),
    DELIVERY_TIMEOUT_MS: intFromEnv(10_000, 100, 120_000),
    DELIVERY_LEASE_MS: intFromEnv(60_000, 1000, 3_600_000),
    DELIVERY_POLL_MS: intFromEnv(1000, 50, 60_000),
    /** With Redis: how long an instance keeps a channel's configuration in its own memory (issue 17.3). */
    CHANNEL_L1_TTL_MS: intFromEnv(5_000, 0, 30_000),
    /** Leads of one lender in flight at once (the worker keeps 20 in flight in all). */
    DELIVERY_PARTNER_CONCURRENCY: intFromEnv(5, 1, 20),
    /** Dev-only partner sandbox (/api/dev/partner-sandbox); seeded lenders deliver to it. */
    PARTNER_SANDBOX: z.enum(['on', 'off']).optional(),
    /** Base URL the seeded lenders' endpoints point at (default http://127.0.0.1:PORT). */
    PARTNER_SANDBOX_URL: z.string().url().optional(),
    /**
     * Outside production only: origins of local test lenders (http://127.0.0.1:40123), comma separated,
     * that partner endpoints may use although they are loopback addresses (ADR 019). Exact origins.
     */
    PARTNER_TEST_ORIGINS: z
      .string()
      .refine((v) => {
        try {
          return parseOriginList(v).length > 0;
        } catch {
          return false;
        }
      }, 'must be origins (http://127.0.0.1:40123), comma separated, nothing more')
      .optional(),

    /**
     * The configured operator (ADR 057): named by the footer, agreements, privacy policy and SMS signature
     * of pages without a channel, of an unknown channel or of one without an operator record (the console's
     * operators are the others), and by the console's own codes.
     */
    OPERATOR_NAME: z.string().min(2).default('深圳市星河数字科技有限公司'),
    OPERATOR_SHORT_NAME: z.string().min(2).default('星河借款'),
    OPERATOR_ADDRESS: z
      .string()
      .min(2)
      .default('广东省深圳市南山区粤海街道科技园科苑路 8 号讯美科技广场 3 号楼 12 层'),
    OPERATOR_LICENCE: z.string().min(2).default('粤ICP备2026000001号'),
    OPERATOR_SERVICE_PHONE: z.string().min(5).default('400-800-2026'),
    OPERATOR_EMAIL: z.string().email().default('privacy@xinghe-jk.example.cn'),
    /** The configured operator's SMS signature, without 【】 (the gateway's sign name). */
    OPERATOR_SMS_SIGNATURE: z.string().regex(SMS_SIGNATURE_PATTERN, SMS_SIGNATURE_MSG).default('星河借款'),
    /** Working days a lender has to confirm deleting a cancelled person's data. */
    DELETION_DEADLINE_WORKING_DAYS: intFromEnv(15, 1, 60),
  })
  .superRefine((env, ctx) => {
    if (env.SMS_PROVIDER === 'aliyun') {
      for (const key of [
        'ALIYUN_SMS_ACCESS_KEY_ID',
        'ALIYUN_SMS_ACCESS_KEY_SECRET',
        'ALIYUN_SMS_TEMPLATE_CODE',
      ] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'required when SMS_PROVIDER=aliyun' });
      }
    }
    if (env.ALIYUN_SMS_SIGN_NAME) {
      ctx.addIssue({
        code: 'custom',
        path: ['ALIYUN_SMS_SIGN_NAME'],
        message:
          'replaced by the operator’s signature (ADR 057): set OPERATOR_SMS_SIGNATURE for the configured operator and each operator’s in the console',
      });
    }
    if (env.GEO_PROVIDER === 'baidu' && !env.BAIDU_MAP_AK) {
      ctx.addIssue({ code: 'custom', path: ['BAIDU_MAP_AK'], message: 'required when GEO_PROVIDER=baidu' });
    }
    if (env.REALNAME_PROVIDER === 'aliyun' && !env.REALNAME_APPCODE) {
      ctx.addIssue({
        code: 'custom',
        path: ['REALNAME_APPCODE'],
        message: 'required when REALNAME_PROVIDER=aliyun',
      });
    }
    const tencentUsers = [
      ...(env.OCR_PROVIDER === 'tencent' ? ['OCR_PROVIDER=tencent'] : []),
      ...(env.FACE_PROVIDER === 'tencent' ? ['FACE_PROVIDER=tencent'] : []),
    ];
    for (const key of ['TENCENT_SECRET_ID', 'TENCENT_SECRET_KEY'] as const) {
      if (tencentUsers.length > 0 && !env[key]) {
        ctx.addIssue({ code: 'custom', path: [key], message: `required when ${tencentUsers.join(' or ')}` });
      }
    }
    if (env.STORAGE_PROVIDER === 'aliyun-oss') {
      const oss = ['OSS_ACCESS_KEY_ID', 'OSS_ACCESS_KEY_SECRET', 'OSS_BUCKET', 'OSS_ENDPOINT'] as const;
      for (const key of oss) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'required when STORAGE_PROVIDER=aliyun-oss' });
      }
    }
    if (env.NODE_ENV === 'production') {
      if (env.PARTNER_TEST_ORIGINS) {
        ctx.addIssue({
          code: 'custom',
          path: ['PARTNER_TEST_ORIGINS'],
          message: 'test partners are for development and tests only',
        });
      }
      if (env.PARTNER_SANDBOX === 'on') {
        ctx.addIssue({
          code: 'custom',
          path: ['PARTNER_SANDBOX'],
          message: 'the partner sandbox is for development only',
        });
      }
      if (env.SMS_PROVIDER === 'console') {
        ctx.addIssue({
          code: 'custom',
          path: ['SMS_PROVIDER'],
          message: 'the console provider does not send real SMS; choose a gateway in production',
        });
      }
      if (!env.PII_KEYS) {
        ctx.addIssue({
          code: 'custom',
          path: ['PII_KEYS'],
          message: 'required in production (never generated)',
        });
      }
      if (!env.PII_INDEX_KEY) {
        ctx.addIssue({
          code: 'custom',
          path: ['PII_INDEX_KEY'],
          message: 'required in production (never generated)',
        });
      }
    }
  });

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws ConfigError listing every problem. Empty strings count as unset. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Env {
  const input: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = source[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  return parsed.data;
}
