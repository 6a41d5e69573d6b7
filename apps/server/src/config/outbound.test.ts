import { describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from './env.ts';
import { adPlatformBase, outboundPolicy, partnerSandboxBase, partnerSandboxOn } from './outbound.ts';

const PROD_BASE = {
  NODE_ENV: 'production',
  SMS_PROVIDER: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'id',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
  ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
  PII_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
  PII_INDEX_KEY: Buffer.alloc(32, 2).toString('base64'),
};

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

describe('outbound allow-list from the configuration (ADR 019)', () => {
  it('is empty in production: no sandbox, no test origins', () => {
    const policy = outboundPolicy(loadConfig({ ...PROD_BASE, PARTNER_SANDBOX_URL: 'http://127.0.0.1:8080' }));
    expect(policy.production).toBe(true);
    expect(policy.allow).toEqual([]);
    expect(problems({ ...PROD_BASE, PARTNER_TEST_ORIGINS: 'http://127.0.0.1:4000' })).toEqual([
      'PARTNER_TEST_ORIGINS: test partners are for development and tests only',
    ]);
  });

  it('in development: the sandbox paths (lenders, ad platforms) on this server’s own address, nothing else of the loopback', () => {
    const config = loadConfig({ NODE_ENV: 'development', PORT: '8080' });
    expect(partnerSandboxOn(config)).toBe(true);
    expect(partnerSandboxBase(config)).toBe('http://127.0.0.1:8080');
    expect(outboundPolicy(config).allow).toEqual([
      { origin: 'http://127.0.0.1:8080', pathPrefix: '/api/dev/partner-sandbox/' },
      { origin: 'http://127.0.0.1:8080', pathPrefix: '/api/dev/ad-sandbox/' },
      { origin: 'http://localhost:8080', pathPrefix: '/api/dev/partner-sandbox/' },
      { origin: 'http://localhost:8080', pathPrefix: '/api/dev/ad-sandbox/' },
    ]);
    // The ad platforms: their sandbox on the listening port outside production, their own origin in production.
    expect(adPlatformBase(config, 'kuaishou', { port: 9001, address: '127.0.0.1', family: 'IPv4' })).toBe(
      'http://127.0.0.1:9001/api/dev/ad-sandbox/kuaishou',
    );
    expect(adPlatformBase(loadConfig(PROD_BASE), 'baidu', null)).toBe('https://ocpc.baidu.com');
    // The sandbox off: nothing at all.
    expect(outboundPolicy(loadConfig({ NODE_ENV: 'development', PARTNER_SANDBOX: 'off' })).allow).toEqual([]);
    expect(outboundPolicy(loadConfig({ NODE_ENV: 'test' })).allow).toEqual([]);
  });

  it('PARTNER_SANDBOX_URL and PARTNER_TEST_ORIGINS add exactly what they name', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      PARTNER_SANDBOX: 'on',
      PARTNER_SANDBOX_URL: 'http://127.0.0.1:4100',
      PARTNER_TEST_ORIGINS: 'http://127.0.0.1:4200,http://127.0.0.1:4201',
    });
    expect(outboundPolicy(config).allow).toEqual([
      { origin: 'http://127.0.0.1:4100', pathPrefix: '/api/dev/partner-sandbox/' },
      { origin: 'http://127.0.0.1:4100', pathPrefix: '/api/dev/ad-sandbox/' },
      { origin: 'http://127.0.0.1:4200', pathPrefix: '/' },
      { origin: 'http://127.0.0.1:4201', pathPrefix: '/' },
    ]);
    expect(problems({ PARTNER_TEST_ORIGINS: 'http://127.0.0.1:4200/leads' })).toEqual([
      expect.stringContaining('PARTNER_TEST_ORIGINS'),
    ]);
  });
});
