import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdGenerator, trustsPeer } from './request-id.ts';

const req = (peer: string, id?: string) =>
  ({
    headers: id ? { 'x-request-id': id } : {},
    socket: { remoteAddress: peer },
  }) as unknown as IncomingMessage;

describe('request ids', () => {
  it('takes the id from a trusted proxy only', () => {
    const none = requestIdGenerator(false);
    expect(none(req('10.0.0.5', 'proxy-id-1234'))).not.toBe('proxy-id-1234');
    const all = requestIdGenerator(true);
    expect(all(req('10.0.0.5', 'proxy-id-1234'))).toBe('proxy-id-1234');
    const cidr = requestIdGenerator(['10.0.0.0/8', '127.0.0.1']);
    expect(cidr(req('10.0.0.5', 'proxy-id-1234'))).toBe('proxy-id-1234');
    expect(cidr(req('127.0.0.1', 'a1b2c3d4e5f60718293a4b5c6d7e8f90'))).toBe(
      'a1b2c3d4e5f60718293a4b5c6d7e8f90',
    );
    expect(cidr(req('203.0.113.9', 'proxy-id-1234'))).not.toBe('proxy-id-1234');
    // A hop count cannot vouch for the peer.
    expect(requestIdGenerator(1)(req('10.0.0.5', 'proxy-id-1234'))).not.toBe('proxy-id-1234');
  });

  it('refuses malformed ids even from a trusted proxy and makes UUIDs', () => {
    const all = requestIdGenerator(true);
    for (const bad of ['short', 'x'.repeat(65), 'has space 123', 'inject\nline-1234']) {
      expect(all(req('10.0.0.5', bad))).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
  });

  it('reads TRUST_PROXY as a comma-separated list too', () => {
    const t = trustsPeer('127.0.0.1, 192.168.0.0/16');
    expect(t('192.168.3.4')).toBe(true);
    expect(t('127.0.0.1')).toBe(true);
    expect(t('8.8.8.8')).toBe(false);
  });

  it('only a trusted proxy sets the request id', () => {
    const trust = ['127.0.0.1'];
    const from = (peer: string, xff: string) =>
      ({
        headers: { 'x-forwarded-for': xff, 'x-request-id': 'proxy-id-1234' },
        socket: { remoteAddress: peer },
        connection: { remoteAddress: peer },
      }) as unknown as IncomingMessage;
    expect(requestIdGenerator(trust)(from('127.0.0.1', '1.2.3.4'))).toBe('proxy-id-1234');
    expect(requestIdGenerator(trust)(from('203.0.113.9', '1.2.3.4'))).not.toBe('proxy-id-1234');
  });
});
