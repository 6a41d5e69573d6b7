import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** What Fastify's `trustProxy` takes (TRUST_PROXY: a yes/no today, addresses and CIDRs later). */
export type TrustProxy = boolean | number | string | string[] | ((addr: string, i: number) => boolean);

/** Whether the connection's peer is a trusted proxy, the way Fastify decides it for X-Forwarded-For. */
export function trustsPeer(trust: TrustProxy): (addr: string) => boolean {
  if (typeof trust === 'function') return (addr) => trust(addr, 0);
  if (trust === true) return () => true;
  // false, or a hop count (which cannot vouch for the immediate peer): nobody.
  if (trust === false || typeof trust === 'number') return () => false;
  const compiled = compileTrust(trust);
  return (addr) => compiled(addr, 0);
}

/** Addresses and CIDR ranges (a comma-separated string or a list) as proxy-addr's trust function, as Fastify does. */
function compileTrust(trust: string | string[]): (addr: string, i: number) => boolean {
  return proxyAddr.compile(typeof trust === 'string' ? trust.split(',').map((v) => v.trim()) : trust);
}

const GIVEN_ID = /^[\w.:-]{8,64}$/;

/**
 * Fastify's `genReqId`: the proxy's X-Request-Id when the peer is a trusted proxy and the id is
 * well-formed (8–64 of letters, digits, `_ . : -`), else a new UUID. Anyone else's header is
 * ignored, so a client cannot choose the id its requests are logged under.
 */
export function requestIdGenerator(trust: TrustProxy): (req: IncomingMessage) => string {
  const trusted = trustsPeer(trust);
  return (req) => {
    const given = req.headers['x-request-id'];
    if (typeof given === 'string' && GIVEN_ID.test(given)) {
      const peer = req.socket?.remoteAddress;
      if (peer && trusted(peer)) return given;
    }
    return randomUUID();
  };
}
