import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';
import { loadKeys } from './keys.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const env = loadConfig({});
    expect(env).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      NODE_ENV: 'development',
      SMS_PROVIDER: 'console',
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        REDIS_URL: 'http://x',
        SMS_PROVIDER: 'aliyun',
        NODE_ENV: 'staging',
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const key of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'NODE_ENV']) expect(problems).toContain(key);
    }
  });

  it('requires gateway credentials for aliyun and real keys in production', () => {
    const e1 = (() => {
      try {
        loadConfig({ SMS_PROVIDER: 'aliyun' });
      } catch (err) {
        return (err as ConfigError).problems;
      }
    })();
    expect(e1).toEqual(
      expect.arrayContaining([
        expect.stringContaining('ALIYUN_SMS_ACCESS_KEY_ID'),
        expect.stringContaining('ALIYUN_SMS_TEMPLATE_CODE'),
      ]),
    );
    const e2 = (() => {
      try {
        loadConfig({ NODE_ENV: 'production' });
      } catch (err) {
        return (err as ConfigError).problems;
      }
    })();
    expect(e2).toEqual(
      expect.arrayContaining([
        expect.stringContaining('SMS_PROVIDER'),
        expect.stringContaining('PII_KEYS'),
        expect.stringContaining('PII_INDEX_KEY'),
      ]),
    );
  });

  it('takes the configured operator’s SMS signature (2–12 characters) and refuses the gateway-wide one (ADR 057)', () => {
    expect(loadConfig({}).OPERATOR_SMS_SIGNATURE).toBe('星河借款');
    expect(loadConfig({ OPERATOR_SMS_SIGNATURE: '云帆数科' }).OPERATOR_SMS_SIGNATURE).toBe('云帆数科');
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ OPERATOR_SMS_SIGNATURE: '借' })).toEqual([
      expect.stringContaining('OPERATOR_SMS_SIGNATURE'),
    ]);
    expect(problems({ OPERATOR_SMS_SIGNATURE: '【星河借款】' }).join()).toContain('OPERATOR_SMS_SIGNATURE');
    expect(problems({ ALIYUN_SMS_SIGN_NAME: '星河借款' }).join()).toContain('OPERATOR_SMS_SIGNATURE');
  });

  it('generates keys into DATA_DIR once outside production and reuses them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lm-keys-'));
    const a = loadKeys(loadConfig({ DATA_DIR: dir }));
    const b = loadKeys(loadConfig({ DATA_DIR: dir }));
    expect(a.ring.keys.get(a.ring.currentKid)).toEqual(b.ring.keys.get(b.ring.currentKid));
    expect(statSync(join(dir, 'keys.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'keys.json'), 'utf8'))).toHaveProperty('piiIndexKey');
  });

  it('refuses malformed keys', () => {
    expect(() =>
      loadKeys(
        loadConfig({
          PII_KEYS: 'k1:c2hvcnQ=',
          PII_INDEX_KEY: Buffer.alloc(32).toString('base64'),
          ENCRYPTED_MOBILE_KEYS: 'x:abc',
        }),
      ),
    ).toThrow(ConfigError);
  });
});
