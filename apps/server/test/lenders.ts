import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { leads, partners } from '../src/db/schema.ts';
import { sign } from '../src/modules/delivery/signing.ts';
import { DEMO_PARTNERS } from '../src/modules/products/seed.ts';
import { LocalPartner } from './partner-server.ts';

/** The demo lenders' signing secrets, by partner code. */
export const SECRETS = new Map(DEMO_PARTNERS.map((p) => [p.code, p.signingSecret!]));
/** The secret of the lender a local lender's path names (`/<code>/…`, as `pointLendersAt` sets). */
export const secretOfPath = (path: string) => SECRETS.get(path.split('/')[1] ?? '') ?? 'unknown';
/** The same for the seeded sandbox endpoints (`/api/dev/partner-sandbox/<code>/leads`). */
export const secretOfSandboxPath = (path: string) => SECRETS.get(path.split('/')[4] ?? '') ?? 'unknown';

/** Points every demo lender's lead endpoint at `<url>/<code>/leads` (no duplicate pre-check). */
export async function pointLendersAt(app: FastifyInstance, url: string): Promise<void> {
  for (const p of DEMO_PARTNERS) {
    await app.database.db
      .update(partners)
      .set({ apiEndpoint: `${url}/${p.code}/leads`, dupCheckEndpoint: null })
      .where(eq(partners.code, p.code));
  }
  app.services.matching.invalidateCatalog();
}

/**
 * A partner's signed call (default the callback `POST /api/partner/callback`; the outcomes API with `url`)
 * signed with `secret` as partner `partnerCode`.
 */
export function signedCallback(
  app: FastifyInstance,
  partnerCode: string,
  secret: string,
  payload: object,
  url = '/api/partner/callback',
) {
  const raw = JSON.stringify(payload);
  const ts = Math.floor(Date.now() / 1000);
  return app.inject({
    method: 'POST',
    url,
    payload: raw,
    headers: {
      'content-type': 'application/json',
      'x-lm-timestamp': String(ts),
      'x-lm-signature': sign(secret, ts, raw),
      'x-lm-partner': partnerCode,
    },
  });
}

/**
 * The file's local lender: started before its tests, stopped after them. It answers as `script` and
 * `noticeScript` say (a test may set them); both are back to a 200 after each test.
 */
export function useLocalPartner(secretOf: (path: string) => string = secretOfPath): LocalPartner {
  const partner = new LocalPartner(secretOf);
  beforeAll(() => partner.start());
  afterEach(() => {
    partner.script = () => ({ status: 200 });
    partner.noticeScript = () => ({ status: 200 });
  });
  afterAll(() => partner.stop());
  return partner;
}

/**
 * Settings of an app that delivers to a local lender at `partnerUrl` (allowed by its exact origin,
 * ADR 019) with short timeouts and backoffs, giving up after `maxAttempts`.
 */
export function quickDeliveryEnv(partnerUrl: string, maxAttempts: number): Record<string, string> {
  return {
    DELIVERY_TIMEOUT_MS: '300',
    DELIVERY_BACKOFF_BASE_MS: '10',
    DELIVERY_BACKOFF_MAX_MS: '40',
    DELIVERY_MAX_ATTEMPTS: String(maxAttempts),
    PARTNER_TEST_ORIGINS: partnerUrl,
  };
}

/** Runs worker rounds of `app` until no lead of `ids` is pending (waiting out backoffs, `pauseMs` apart). */
export async function deliverAll(
  app: FastifyInstance,
  ids: number[],
  { timeoutMs = 15_000, pauseMs = 20 }: { timeoutMs?: number; pauseMs?: number } = {},
) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await app.services.delivery.runOnce();
    const rows = await app.database.db
      .select({ status: leads.status })
      .from(leads)
      .where(inArray(leads.id, ids));
    if (rows.every((r) => r.status !== 'pending')) return;
    if (Date.now() > until) throw new Error('leads still pending');
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}
