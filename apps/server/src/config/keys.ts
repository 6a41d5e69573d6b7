import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyRing, PartnerKey } from '../lib/crypto.ts';
import { ConfigError, type Env } from './env.ts';

interface KeyFile {
  piiKeys: string;
  piiIndexKey: string;
  encryptedMobileKeys: string;
}

function decodeKey(b64: string, bytes: number[], what: string, problems: string[]): Buffer | null {
  const buf = Buffer.from(b64, 'base64');
  if (!bytes.includes(buf.length)) {
    problems.push(`${what}: must be base64 of ${bytes.join(' or ')} bytes`);
    return null;
  }
  return buf;
}

/**
 * Outside production, keys not given in the environment are generated once into
 * DATA_DIR/keys.json (mode 600) so data written by one start can be read by the next.
 * In production the config schema already refuses to start without them.
 */
function devKeyFile(env: Env): KeyFile {
  const path = join(env.DATA_DIR, 'keys.json');
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
  const file: KeyFile = {
    piiKeys: `k1:${randomBytes(32).toString('base64')}`,
    piiIndexKey: randomBytes(32).toString('base64'),
    // A demo partner source for trying encrypted-phone links locally (see GET /api/dev/encrypt-mobile).
    encryptedMobileKeys: `demo:${randomBytes(16).toString('base64')}`,
  };
  mkdirSync(env.DATA_DIR, { recursive: true });
  writeFileSync(path, JSON.stringify(file, null, 2), { mode: 0o600 });
  return file;
}

export interface Keys {
  ring: KeyRing;
  partnerKeys: Map<string, PartnerKey>;
}

export function loadKeys(env: Env): Keys {
  const needFile = !env.PII_KEYS || !env.PII_INDEX_KEY || !env.ENCRYPTED_MOBILE_KEYS;
  const file = needFile && env.NODE_ENV !== 'production' ? devKeyFile(env) : undefined;
  const problems: string[] = [];

  const piiKeys = env.PII_KEYS ?? file?.piiKeys ?? '';
  const keys = new Map<string, Buffer>();
  let currentKid = '';
  for (const entry of piiKeys.split(',').filter(Boolean)) {
    const [kid, b64] = entry.split(':');
    if (!kid || !b64 || !/^[A-Za-z0-9_-]{1,16}$/.test(kid)) {
      problems.push('PII_KEYS: each entry must be kid:base64key');
      continue;
    }
    const key = decodeKey(b64, [32], `PII_KEYS[${kid}]`, problems);
    if (key) {
      keys.set(kid, key);
      currentKid ||= kid;
    }
  }
  if (keys.size === 0) problems.push('PII_KEYS: no usable key');

  const indexKey = decodeKey(env.PII_INDEX_KEY ?? file?.piiIndexKey ?? '', [32], 'PII_INDEX_KEY', problems);

  const partnerKeys = new Map<string, PartnerKey>();
  for (const entry of (env.ENCRYPTED_MOBILE_KEYS ?? file?.encryptedMobileKeys ?? '')
    .split(',')
    .filter(Boolean)) {
    const [source, keyB64, ivB64] = entry.split(':');
    if (!source || !keyB64) {
      problems.push('ENCRYPTED_MOBILE_KEYS: each entry must be source:base64key[:base64iv]');
      continue;
    }
    const key = decodeKey(keyB64, [16, 24, 32], `ENCRYPTED_MOBILE_KEYS[${source}]`, problems);
    const iv = ivB64 ? decodeKey(ivB64, [16], `ENCRYPTED_MOBILE_KEYS[${source}] iv`, problems) : undefined;
    if (key) partnerKeys.set(source, iv ? { key, iv } : { key });
  }

  if (problems.length > 0 || !indexKey) throw new ConfigError(problems);
  return { ring: { currentKid, keys, indexKey }, partnerKeys };
}
