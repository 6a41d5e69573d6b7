import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FORM } from './fixtures.ts';
import { BACKEND, PG_URL } from './helpers.ts';
import { secretOfSandboxPath } from './lenders.ts';
import { LocalPartner } from './partner-server.ts';
import { apiCaller, consentOverHttp, ServerProcess, scratchDatabase } from './server-process.ts';

/**
 * The real server process is killed with SIGKILL while it delivers leads; after a restart every
 * consented lead reaches the partner, each under one idempotency key (one lead for the partner).
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe(`delivery survives kill -9 (${BACKEND})`, () => {
  it('after a SIGKILL mid-delivery and a restart, every consented lead is delivered once', async () => {
    // The partner: the first try of each lead is never answered (it still takes the lead), the second
    // fails, later ones succeed; it de-duplicates on the idempotency key.
    const partner = new LocalPartner(secretOfSandboxPath, (attempt) =>
      attempt === 1 ? { holdStatus: 200 } : attempt === 2 ? { status: 500 } : { status: 200 },
    );
    await partner.start();
    cleanups.push(() => partner.stop());

    const dataDir = mkdtempSync(join(tmpdir(), 'lm-crash-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const database = PG_URL ? await scratchDatabase(PG_URL, 'lm_crash') : null;
    if (database) cleanups.push(() => database.drop());

    const server = await ServerProcess.create({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(database ? { DATABASE_URL: database.url } : {}),
      PARTNER_SANDBOX: 'on',
      PARTNER_SANDBOX_URL: partner.url,
      DELIVERY_POLL_MS: '50',
      DELIVERY_TIMEOUT_MS: '800',
      DELIVERY_BACKOFF_BASE_MS: '50',
      DELIVERY_BACKOFF_MAX_MS: '200',
      DELIVERY_LEASE_MS: '1500',
      WEB_DIST: join(dataDir, 'no-web'),
      ADMIN_DIST: join(dataDir, 'no-admin'),
    });
    const { url } = server;
    const start = () => server.start();
    const kill9 = () => server.stop('SIGKILL');
    cleanups.push(() => {
      if (server.running) server.child!.kill('SIGKILL');
    });

    const call = apiCaller(url);

    await start();
    let expected = 0;
    for (let i = 0; i < 4; i++) {
      expected += (await consentOverHttp(call, FORM)).filter((c) => c.mode === 'api').length;
    }
    expect(expected).toBeGreaterThan(0);

    // Kill the server while first tries are in flight.
    const until = Date.now() + 10_000;
    while (partner.requests.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(partner.requests.length).toBeGreaterThan(0);
    await kill9();
    const beforeRestart = partner.requests.length;

    await start();
    const deadline = Date.now() + 30_000;
    while (partner.accepted.size < expected && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    // Give a re-sent lead a moment to show up twice if the server were to send it again.
    await new Promise((r) => setTimeout(r, 500));
    await kill9();

    expect(partner.requests.length).toBeGreaterThan(beforeRestart);
    expect(partner.accepted.size, server.output).toBe(expected);
    // Every request of one lead carried that lead's key: the partner saw exactly `expected` leads.
    expect(new Set(partner.requests.map((r) => r.key)).size).toBe(expected);
    expect(partner.requests.every((r) => r.signatureOk)).toBe(true);
  });
});
