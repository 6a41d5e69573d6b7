import { describe, expect, it } from 'vitest';
import {
  blindIndex,
  decryptField,
  encryptField,
  type KeyRing,
  partnerDecrypt,
  partnerEncrypt,
  seal,
  unseal,
} from './crypto.ts';

const ring = (current: string): KeyRing => ({
  currentKid: current,
  keys: new Map([
    ['k1', Buffer.alloc(32, 1)],
    ['k2', Buffer.alloc(32, 2)],
  ]),
  indexKey: Buffer.alloc(32, 9),
});

describe('field encryption', () => {
  it('round-trips with a fresh IV each time and the key id beside the value', () => {
    const a = encryptField(ring('k1'), '13812345678');
    const b = encryptField(ring('k1'), '13812345678');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.k1\./);
    expect(a).not.toContain('13812345678');
    expect(decryptField(ring('k1'), a)).toBe('13812345678');
  });
  it('reads values written with an older key after rotation', () => {
    const old = encryptField(ring('k1'), '张三');
    expect(decryptField(ring('k2'), old)).toBe('张三');
    expect(encryptField(ring('k2'), '张三')).toMatch(/^v1\.k2\./);
  });
  it('refuses tampered values and unknown keys', () => {
    const v = encryptField(ring('k1'), 'secret');
    const parts = v.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => decryptField(ring('k1'), parts.join('.'))).toThrow();
    expect(() => decryptField(ring('k1'), v.replace('.k1.', '.k9.'))).toThrow(/Unknown/);
  });
  it('says which key id does not fit when another server encrypted with a different key of the same id', () => {
    const v = encryptField(ring('k1'), '13812345678');
    const other: KeyRing = { ...ring('k1'), keys: new Map([['k1', Buffer.alloc(32, 7)]]) };
    expect(() => decryptField(other, v)).toThrow(/key id k1.*same PII_KEYS/);
  });
  it('seals tickets that cannot be forged', () => {
    const t = seal(ring('k1'), { p: '13812345678', exp: 1 });
    expect(unseal(ring('k1'), t)).toEqual({ p: '13812345678', exp: 1 });
    // Flip one bit of the last part (the tag): overwriting its last characters with fixed ones
    // left the token unchanged whenever it already ended in them (about 1 run in 256).
    const parts = t.split('.');
    const tag = Buffer.from(parts[parts.length - 1] ?? '', 'base64url');
    tag[0] = (tag[0] ?? 0) ^ 1;
    parts[parts.length - 1] = tag.toString('base64url');
    const forged = parts.join('.');
    expect(forged).not.toBe(t);
    expect(unseal(ring('k1'), forged)).toBeNull();
  });
  it('refuses a ticket with any single character changed', () => {
    const t = seal(ring('k1'), { p: '13812345678', exp: 1 });
    for (let i = 0; i < t.length; i++) {
      if (t[i] === '.') continue;
      const forged = `${t.slice(0, i)}${t[i] === 'A' ? 'B' : 'A'}${t.slice(i + 1)}`;
      const opened = unseal<{ p: string; exp: number }>(ring('k1'), forged);
      // A changed padding bit may decode to the same bytes; then the ticket must still be the original.
      if (opened !== null) expect(opened).toEqual({ p: '13812345678', exp: 1 });
    }
  });
});

describe('blind index', () => {
  it('is deterministic, keyed and namespaced', () => {
    const r = ring('k1');
    expect(blindIndex(r, 'phone', '13812345678')).toBe(blindIndex(r, 'phone', '13812345678'));
    expect(blindIndex(r, 'phone', '13812345678')).not.toBe(blindIndex(r, 'device', '13812345678'));
    expect(blindIndex({ ...r, indexKey: Buffer.alloc(32, 8) }, 'phone', '13812345678')).not.toBe(
      blindIndex(r, 'phone', '13812345678'),
    );
  });
});

describe('partner encrypted phones', () => {
  it('round-trips AES-ECB and AES-CBC and fails closed on a wrong key', () => {
    const ecb = { key: Buffer.alloc(16, 7) };
    const cbc = { key: Buffer.alloc(32, 5), iv: Buffer.alloc(16, 3) };
    expect(partnerDecrypt(ecb, partnerEncrypt(ecb, '13812345678'))).toBe('13812345678');
    expect(partnerDecrypt(cbc, partnerEncrypt(cbc, '13812345678'))).toBe('13812345678');
    expect(partnerDecrypt({ key: Buffer.alloc(16, 1) }, partnerEncrypt(ecb, '13812345678'))).not.toBe(
      '13812345678',
    );
    expect(partnerDecrypt(ecb, '!!!')).toBeNull();
  });
  it('accepts URL-safe base64', () => {
    const ecb = { key: Buffer.alloc(16, 7) };
    const std = partnerEncrypt(ecb, '13912345678');
    expect(partnerDecrypt(ecb, std.replace(/\+/g, '-').replace(/\//g, '_'))).toBe('13912345678');
  });
});
