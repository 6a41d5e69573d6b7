import type { AddressInfo } from 'node:net';
import type { AdPlatform } from '@lm/shared/ad-clicks';
import { type AllowEntry, parseOriginList, sandboxAllowEntries } from '../lib/outbound-address.ts';
import { OutboundPolicy } from '../lib/partner-http.ts';
import { PLATFORM_ADAPTERS } from '../modules/conversions/platforms/index.ts';
import type { Env } from './env.ts';

/** Where partner calls may go, from the configuration (ADR 019). */

/** Whether the dev partner sandbox is served (never in production). */
export function partnerSandboxOn(config: Env): boolean {
  return (
    config.NODE_ENV !== 'production' &&
    (config.PARTNER_SANDBOX ?? (config.NODE_ENV === 'development' ? 'on' : 'off')) === 'on'
  );
}

/** Where the seeded lenders find the sandbox: PARTNER_SANDBOX_URL, else this server's own address. */
export function partnerSandboxBase(config: Env): string {
  return config.PARTNER_SANDBOX_URL ?? `http://127.0.0.1:${config.PORT}`;
}

/** The sandbox's allow-list entries for this server listening on `port` (127.0.0.1 and localhost). */
export function ownSandboxEntries(port: number): AllowEntry[] {
  return port > 0
    ? [`http://127.0.0.1:${port}`, `http://localhost:${port}`].flatMap((base) => sandboxAllowEntries(base))
    : [];
}

/**
 * Where partner calls may go (ADR 019): public https endpoints only. Outside production, with the
 * sandbox on, also the sandbox's paths on this server's own address (and PARTNER_SANDBOX_URL); and
 * the exact origins of PARTNER_TEST_ORIGINS (local test lenders). Nothing else, never "any loopback".
 */
export function outboundPolicy(config: Env): OutboundPolicy {
  const production = config.NODE_ENV === 'production';
  const allow: AllowEntry[] = [];
  if (!production) {
    if (partnerSandboxOn(config)) {
      allow.push(...ownSandboxEntries(config.PORT));
      if (config.PARTNER_SANDBOX_URL) allow.push(...sandboxAllowEntries(config.PARTNER_SANDBOX_URL));
    }
    if (config.PARTNER_TEST_ORIGINS) allow.push(...parseOriginList(config.PARTNER_TEST_ORIGINS));
  }
  return new OutboundPolicy({ production, allow });
}

/** The port this server listens on (PORT=0 picks one), else the configured one. */
const listeningPort = (config: Env, address: AddressInfo | string | null) =>
  address && typeof address === 'object' ? address.port : config.PORT;

/**
 * Where the conversion reports of `platform` go (issue 47.3): its documented origin in production; elsewhere
 * the local ad sandbox (PARTNER_SANDBOX_URL, else this server's own address), reachable while the sandboxes
 * are on (PARTNER_SANDBOX).
 */
export function adPlatformBase(
  config: Env,
  platform: AdPlatform,
  address: AddressInfo | string | null,
): string {
  if (config.NODE_ENV === 'production') return PLATFORM_ADAPTERS[platform].origin;
  const base = config.PARTNER_SANDBOX_URL ?? `http://127.0.0.1:${listeningPort(config, address)}`;
  return `${base.replace(/\/+$/, '')}/api/dev/ad-sandbox/${platform}`;
}

/** Our public origin (PUBLIC_BASE_URL), else this server's own address (development). */
export function publicOrigin(config: Env, address: AddressInfo | string | null): string {
  return (config.PUBLIC_BASE_URL ?? `http://localhost:${listeningPort(config, address)}`).replace(/\/+$/, '');
}
