import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

/**
 * Personal-data protection: AES-256-GCM field encryption with the key id stored beside each value
 * (so keys can rotate: the first key encrypts, every listed key decrypts), and a blind index (HMAC)
 * to find a person by phone without storing the phone in clear.
 */
export interface KeyRing {
  currentKid: string;
  keys: Map<string, Buffer>;
  indexKey: Buffer;
}

const PREFIX = 'v1';

export function encryptField(ring: KeyRing, plaintext: string): string {
  const key = ring.keys.get(ring.currentKid)!;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [
    PREFIX,
    ring.currentKid,
    iv.toString('base64url'),
    ct.toString('base64url'),
    tag.toString('base64url'),
  ].join('.');
}

export function decryptField(ring: KeyRing, stored: string): string {
  const [prefix, kid, iv, ct, tag] = stored.split('.');
  if (prefix !== PREFIX || !kid || iv === undefined || ct === undefined || tag === undefined) {
    throw new Error('Malformed encrypted field');
  }
  const key = ring.keys.get(kid);
  if (!key) throw new Error(`Unknown encryption key id ${kid}`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // The usual cause: instances (or a restore) with different keys under the same key id.
    throw new Error(
      `Cannot decrypt a field encrypted with key id ${kid}: this server's key ${kid} is not the one that encrypted it ` +
        '(every instance must get the same PII_KEYS), or the stored value was altered',
    );
  }
}

/** Key id of a stored value (to find rows still encrypted with an old key). */
export function keyIdOf(stored: string): string | undefined {
  return stored.split('.')[1];
}

/** Deterministic keyed hash for lookups (phone → index). Namespaced so hashes of different kinds differ. */
export function blindIndex(ring: KeyRing, namespace: string, value: string): string {
  return createHmac('sha256', ring.indexKey).update(`${namespace}\u0000${value}`).digest('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  return timingSafeEqual(ab, bb);
}

/** Opaque bearer token: 32 random bytes. Only its SHA-256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Six digits from a CSPRNG. */
export function newSmsCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** Seals a small JSON payload with the current key (used for short-lived tickets). */
export function seal(ring: KeyRing, payload: unknown): string {
  return encryptField(ring, JSON.stringify(payload)).slice(PREFIX.length + 1);
}

export function unseal<T>(ring: KeyRing, sealed: string): T | null {
  try {
    return JSON.parse(decryptField(ring, `${PREFIX}.${sealed}`)) as T;
  } catch {
    return null;
  }
}

/**
 * Partner-encrypted phones in links: AES in ECB (no IV) or CBC (with IV), PKCS#7, base64 —
 * the format partners commonly use. Key length picks AES-128/192/256.
 */
export interface PartnerKey {
  key: Buffer;
  iv?: Buffer;
}

function partnerAlgorithm(pk: PartnerKey): string {
  const bits = pk.key.length * 8;
  if (![128, 192, 256].includes(bits)) throw new Error('Partner key must be 16, 24 or 32 bytes');
  return `aes-${bits}-${pk.iv ? 'cbc' : 'ecb'}`;
}

export function partnerDecrypt(pk: PartnerKey, b64: string): string | null {
  try {
    const normalized = b64.replace(/-/g, '+').replace(/_/g, '/');
    const decipher = createDecipheriv(partnerAlgorithm(pk), pk.key, pk.iv ?? null);
    return Buffer.concat([decipher.update(Buffer.from(normalized, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

export function partnerEncrypt(pk: PartnerKey, plaintext: string): string {
  const cipher = createCipheriv(partnerAlgorithm(pk), pk.key, pk.iv ?? null);
  return Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]).toString('base64');
}
