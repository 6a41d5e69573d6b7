import { describe, expect, it } from 'vitest';
import { readPhoneLink } from './phone-link';

const q = (s: string) => new URLSearchParams(s);

describe('readPhoneLink (encrypted-phone links)', () => {
  it('encryptionMobile with source', () => {
    expect(readPhoneLink(q('encryptionMobile=abc%2B%2F%3D&source=demo'))).toEqual({
      kind: 'encrypted',
      key: 'encryptionMobile',
      encryptionMobile: 'abc+/=',
      source: 'demo',
    });
  });

  it('restores "+" that arrived unencoded (base64)', () => {
    expect(readPhoneLink(q('rp=ab+cd==&source=p'))).toMatchObject({ key: 'rp', encryptionMobile: 'ab+cd==' });
  });

  it('rsaPhone without source', () => {
    expect(readPhoneLink(q('rsaPhone=xyz'))).toEqual({
      kind: 'encrypted',
      key: 'rsaPhone',
      encryptionMobile: 'xyz',
      source: null,
    });
  });

  it('encryptionMobile wins over rp and rsaPhone', () => {
    expect(readPhoneLink(q('rsaPhone=3&rp=2&encryptionMobile=1'))).toMatchObject({ key: 'encryptionMobile' });
    expect(readPhoneLink(q('rsaPhone=3&rp=2'))).toMatchObject({ key: 'rp' });
  });

  it('phone or mobile prefill a valid clear phone only', () => {
    expect(readPhoneLink(q('phone=13812345678'))).toEqual({ kind: 'clear', phone: '13812345678' });
    expect(readPhoneLink(q('mobile=13912345678'))).toEqual({ kind: 'clear', phone: '13912345678' });
    expect(readPhoneLink(q('phone=12345'))).toBeNull();
  });

  it('an encrypted phone wins over a clear one; nothing → null', () => {
    expect(readPhoneLink(q('phone=13812345678&rp=x'))).toMatchObject({ kind: 'encrypted' });
    expect(readPhoneLink(q('adChannelCode=demo'))).toBeNull();
  });
});
