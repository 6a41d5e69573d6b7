import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where the server may send partner requests (lead deliveries, notices, duplicate pre-checks):
 * docs/decisions/019-outbound-partner-requests.md. Pure rules here; `partner-http.ts` applies them
 * again to the address actually dialled.
 */

/** Why an address may not be dialled. */
export type ForbiddenKind =
  | 'metadata'
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'sharedAddress'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved';

export const FORBIDDEN_KIND_TEXT: Record<ForbiddenKind, string> = {
  metadata: '云服务器元数据地址',
  loopback: '本机回环地址',
  private: '内网地址',
  linkLocal: '链路本地地址',
  sharedAddress: '运营商共享地址（100.64.0.0/10）',
  multicast: '组播地址',
  unspecified: '未指定地址',
  broadcast: '广播地址',
  reserved: '保留地址或非公网地址',
};

/** Cloud instance-metadata addresses (all inside forbidden ranges too; named for a clearer message). */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, Huawei, Oracle, OpenStack …
  '169.254.170.2', // AWS ECS task metadata
  '169.254.0.23', // Tencent Cloud (metadata.tencentyun.com)
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud (legacy)
  'fd00:ec2::254', // AWS over IPv6
]);

const IPV4_KINDS: Record<string, ForbiddenKind> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'linkLocal',
  loopback: 'loopback',
  carrierGradeNat: 'sharedAddress',
  private: 'private',
};

const IPV6_KINDS: Record<string, ForbiddenKind> = {
  unspecified: 'unspecified',
  linkLocal: 'linkLocal',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
};

/** Global unicast: the only IPv6 block (2000::/3) a partner can be in. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** NAT64 well-known prefix (RFC 6052): the last 32 bits are an IPv4 address, judged as such. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

function ipv4Kind(a: ipaddr.IPv4): ForbiddenKind | null {
  if (METADATA_ADDRESSES.has(a.toString())) return 'metadata';
  const range = a.range();
  if (range === 'unicast') return null;
  // reserved (192.0.0/24, documentation, 198.18/15 benchmarking, 240/4), as112, amt …
  return IPV4_KINDS[range] ?? 'reserved';
}

function ipv6Kind(a: ipaddr.IPv6): ForbiddenKind | null {
  if (a.isIPv4MappedAddress()) return ipv4Kind(a.toIPv4Address());
  if (METADATA_ADDRESSES.has(a.toRFC5952String())) return 'metadata';
  if (a.match(NAT64)) {
    const p = a.parts;
    return ipv4Kind(new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]));
  }
  const range = a.range();
  if (range !== 'unicast') return IPV6_KINDS[range] ?? 'reserved';
  // ::/96 (IPv4-compatible, deprecated) and everything else outside 2000::/3.
  if (!a.match(GLOBAL_UNICAST)) return 'reserved';
  return null;
}

/**
 * Why `ip` (an IPv4 or IPv6 literal, brackets allowed) may not be dialled, or null for a public
 * unicast address. Refused: loopback, RFC 1918 and fc00::/7, link-local (169.254/16, fe80::/10),
 * 100.64/10, multicast, unspecified, broadcast, reserved and documentation ranges, IPv6 outside
 * 2000::/3, IPv4-mapped and NAT64 (64:ff9b::/96) forms by the IPv4 address they carry, 6to4 and Teredo
 * (they embed addresses we cannot judge). A string that is not an address is refused too.
 */
export function forbiddenAddressKind(ip: string): ForbiddenKind | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // Only canonical literals (net.isIP): ipaddr.js alone also reads "0x7f.1" and friends.
  if (!isIP(bare)) return 'reserved';
  const a = ipaddr.parse(bare);
  return a.kind() === 'ipv4' ? ipv4Kind(a as ipaddr.IPv4) : ipv6Kind(a as ipaddr.IPv6);
}

export function isForbiddenAddress(ip: string): boolean {
  return forbiddenAddressKind(ip) !== null;
}

/** Instance-metadata names that do not end in a refused suffix. */
const METADATA_NAMES = ['metadata.google.internal', 'metadata.goog', 'metadata.tencentyun.com'];
/** Suffixes of names that lead inwards (private-use or special-use names). */
const INTERNAL_SUFFIXES = [
  'localhost',
  'localdomain',
  'local',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'arpa',
  'svc',
];

/** Why a host name (not an address) may not be used, or null. */
export function hostNameProblem(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const under = (s: string) => name === s || name.endsWith(`.${s}`);
  if (METADATA_NAMES.some(under)) return `不能指向云服务器元数据服务（${name}）`;
  if (under('localhost')) return `不能指向本机（${name}）`;
  if (INTERNAL_SUFFIXES.some(under)) return `不能使用内网域名（${name}）`;
  // A single label ("metadata", "instance-data", "redis") is completed by the resolver's search
  // domains: an internal name by construction.
  if (!name.includes('.')) return `必须使用完整的公网域名（${name}）`;
  return null;
}

/** An origin (and path prefix) partner requests may reach although the rules above refuse it. */
export interface AllowEntry {
  /** `new URL(…).origin`, e.g. http://127.0.0.1:8080. */
  origin: string;
  /** The path must start with this, e.g. /api/dev/partner-sandbox/; "/" for the whole origin. */
  pathPrefix: string;
}

export interface EndpointRules {
  production: boolean;
  /** Ignored in production. */
  allow: readonly AllowEntry[];
}

/** Whether `u` is covered by an allow-list entry (never in production). */
export function isAllowListed(u: URL, rules: EndpointRules): boolean {
  if (rules.production) return false;
  return rules.allow.some((e) => e.origin === u.origin && u.pathname.startsWith(e.pathPrefix));
}

/** Whether requests to `origin` may skip the address check (an allow-listed origin; never in production). */
export function isAllowListedOrigin(origin: string, rules: EndpointRules): boolean {
  return !rules.production && rules.allow.some((e) => e.origin === origin);
}

/**
 * The allow-list entries of the built-in partner sandbox at `base` (the server's own address outside
 * production): that origin, the sandbox's paths only.
 */
export function sandboxAllowEntries(base: string): AllowEntry[] {
  const u = new URL(base);
  const path = u.pathname.replace(/\/+$/, '');
  return [
    { origin: u.origin, pathPrefix: `${path}/api/dev/partner-sandbox/` },
    // The ad platforms' local sandboxes (issue 47.3), served beside the partner sandbox.
    { origin: u.origin, pathPrefix: `${path}/api/dev/ad-sandbox/` },
  ];
}

/**
 * Why a partner endpoint (lead API, duplicate pre-check) cannot be used, or null, from the URL alone:
 * an https URL without credentials whose host is neither a forbidden address (in any spelling: the
 * WHATWG parser reads 2130706433, 0x7f.1, 017700000001 and 127.1 as 127.0.0.1), nor an
 * instance-metadata, local or single-label name. An allow-listed URL (outside production: the local
 * partner sandbox, test partners) is accepted as it is, http included. The name's DNS answer is
 * checked by `endpointAddressProblem`.
 */
export function endpointProblem(value: string, rules: EndpointRules): string | null {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return '不是有效的网址';
  }
  if (u.username || u.password) return '网址中不能包含用户名或密码';
  if (isAllowListed(u, rules)) return null;
  if (u.protocol !== 'https:') {
    return rules.production ? '必须使用 https 地址' : '必须使用 https 地址（http 仅限本机的合作机构沙箱）';
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const kind = forbiddenAddressKind(host);
    return kind ? `不能指向${FORBIDDEN_KIND_TEXT[kind]}（${host}）` : null;
  }
  return hostNameProblem(host);
}

/** Addresses of a host name (tests inject their own: no test depends on real DNS). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** What dialling `hostname` may use: its addresses, all permitted, or why none may be used. */
export type Resolution =
  | { ok: true; addresses: string[] }
  | { ok: false; problem: string; address?: string; kind?: ForbiddenKind };

/**
 * Resolves `hostname` (an address is its own answer) and answers its addresses if every one is
 * permitted. A name with one forbidden address is refused as a whole (a mixed answer is how DNS
 * rebinding starts). A name that does not resolve within `timeoutMs` is refused.
 */
export async function resolvePermitted(
  hostname: string,
  resolve: Resolver,
  timeoutMs = 3000,
): Promise<Resolution> {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    const nameProblem = hostNameProblem(host);
    if (nameProblem) return { ok: false, problem: nameProblem };
    let timer: NodeJS.Timeout | undefined;
    try {
      addresses = await Promise.race([
        resolve(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })),
            timeoutMs,
          );
        }),
      ]);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return {
        ok: false,
        problem:
          code === 'ENOTFOUND' || code === 'ENODATA'
            ? `的域名无法解析（${host}），请确认域名已生效`
            : `的域名暂时无法解析（${host}），请稍后再试`,
      };
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) {
      return { ok: false, problem: `的域名无法解析（${host}），请确认域名已生效` };
    }
  }
  for (const address of addresses) {
    const kind = forbiddenAddressKind(address);
    if (kind) {
      const what = FORBIDDEN_KIND_TEXT[kind];
      return {
        ok: false,
        address,
        kind,
        problem: isIP(host)
          ? `不能指向${what}（${host}）`
          : `的域名解析到了${what}（${host} → ${address}），不能使用`,
      };
    }
  }
  return { ok: true, addresses };
}

/**
 * The save-time check of a partner endpoint: `endpointProblem`, then, for a host name that is not
 * allow-listed, its DNS answer (every address must be permitted). The answer starts where the field's
 * label ends: "线索推送地址" + problem.
 */
export async function endpointAddressProblem(
  value: string,
  rules: EndpointRules,
  resolve: Resolver,
  timeoutMs?: number,
): Promise<string | null> {
  const problem = endpointProblem(value, rules);
  if (problem) return problem;
  const u = new URL(value);
  if (isAllowListed(u, rules)) return null;
  const r = await resolvePermitted(u.hostname, resolve, timeoutMs);
  return r.ok ? null : r.problem;
}

/**
 * PARTNER_TEST_ORIGINS: origins (http://127.0.0.1:40123), comma separated, each exactly an origin
 * (no path, query or credentials). Answers the entries, or throws with the bad value.
 */
export function parseOriginList(value: string): AllowEntry[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      let u: URL;
      try {
        u = new URL(s);
      } catch {
        throw new Error(`not an origin: ${s}`);
      }
      if (!/^https?:$/.test(u.protocol) || u.origin !== s.replace(/\/$/, '') || s.includes('@')) {
        throw new Error(`not an origin (scheme://host:port, nothing more): ${s}`);
      }
      return { origin: u.origin, pathPrefix: '/' };
    });
}
