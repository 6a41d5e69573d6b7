import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { memoizeRecent } from './recent-memo.ts';

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

/** Addresses whose trust is remembered: two generations of this many (the proxies, and the visitors they vouch for). */
const TRUST_ANSWERS_REMEMBERED = 4096;

/** Longer than any IPv6 address with a zone: asked of proxy-addr every time, never kept. */
const LONGEST_REMEMBERED_ADDRESS = 64;

/**
 * TRUST_PROXY's addresses and ranges as one trust function that remembers its answer per address (ADR 045):
 * proxy-addr's own parses the address on every call, and every request asks it about the connection's peer
 * (the proxy), and about each further hop of X-Forwarded-For until one is not trusted. Given to Fastify as
 * `trustProxy` and to the request id and the front's client address, so the three decide alike. `false`
 * (no proxy trusted) comes back as it is.
 */
export function rememberingTrust(
  trust: false | string | string[],
): false | ((addr: string, i: number) => boolean) {
  if (trust === false) return false;
  const compiled = compileTrust(trust);
  const trusted = memoizeRecent((addr: string) => compiled(addr, 0), TRUST_ANSWERS_REMEMBERED);
  return (addr: string) => (addr.length <= LONGEST_REMEMBERED_ADDRESS ? trusted(addr) : compiled(addr, 0));
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

/**
 * The client's address as Fastify's `request.ip` gives it under `trustProxy` (the furthest address the
 * trusted proxies vouch for, X-Forwarded-For), else the connection's peer: for what is answered in front of
 * Fastify (lib/front-answers.ts).
 */
export function clientIpOf(trust: TrustProxy): (req: IncomingMessage) => string | undefined {
  if (trust === false) return (req) => req.socket?.remoteAddress;
  const fn: (addr: string, i: number) => boolean =
    typeof trust === 'function'
      ? trust
      : trust === true
        ? () => true
        : typeof trust === 'number'
          ? (_addr, i) => i < trust
          : compileTrust(trust);
  return (req) => {
    const all = proxyAddr.all(req, fn);
    return all[all.length - 1];
  };
}
