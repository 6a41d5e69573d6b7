import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';

/** Addresses that say nothing about where a person is: private, loopback, link-local, CGNAT … */
const nonPublic = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  nonPublic.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(net, prefix, 'ipv6');
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; other addresses unchanged. */
export function unmapIpv4(ip: string): string {
  const m = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip.trim());
  return m ? m[1]! : ip.trim();
}

/** Whether `ip` is a well-formed public address worth looking up. */
export function isPublicIp(raw: string): boolean {
  const ip = unmapIpv4(raw);
  const family = isIP(ip);
  if (family === 0) return false;
  return !nonPublic.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

export interface IpPlace {
  country: string;
  province: string;
  city: string;
}

interface Ip2RegionSearcher {
  search(ip: string): { country: string; province: string; city: string; isp: string } | null;
}

const require = createRequire(import.meta.url);
let searcher: Ip2RegionSearcher | null = null;

/**
 * The `ip2region` package's offline databases (IPv4 and IPv6, shipped inside the package, read
 * into memory once per process on first use: about 11 MB).
 */
function ip2region(): Ip2RegionSearcher {
  if (!searcher) {
    const mod = require('ip2region') as { default: new (opts?: object) => Ip2RegionSearcher };
    searcher = new mod.default();
  }
  return searcher;
}

/** Loads the databases now (at start-up rather than on the first request). */
export function warmUpIpDatabase(): void {
  ip2region();
}

/** Country, province and city of a public IP from the offline database; null when unknown. */
export function lookupIp(raw: string): IpPlace | null {
  if (!isPublicIp(raw)) return null;
  const ip = unmapIpv4(raw);
  const found = ip2region().search(ip);
  if (!found?.country) return null;
  return { country: found.country, province: found.province, city: found.city };
}
