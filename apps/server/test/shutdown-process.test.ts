import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../src/db/client.ts';
import { FORM } from './fixtures.ts';
import { BACKEND, newPhone, PG_URL } from './helpers.ts';
import {
  apiCaller,
  consentOverHttp,
  freePort,
  probe,
  ServerProcess,
  scratchDatabase,
} from './server-process.ts';

/**
 * The real server process gets SIGTERM while a request is in flight and the inline worker waits on
 * a lender that never answers: /readyz is 503 at once, the listener closes after the delay, the
 * request is answered, the process exits 0, and no lead is left claimed.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`SIGTERM (${BACKEND})`, () => {
  it('drains: not ready at once, no new connections after the delay, the request in flight answered, exit 0, no lead claimed', async () => {
    // A lender that takes every lead and never answers.
    let received = 0;
    const lender: Server = createServer((req) => {
      req.resume();
      received++;
    });
    await new Promise<void>((r) => lender.listen(0, '127.0.0.1', r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          lender.closeAllConnections();
          lender.close(() => r());
        }),
    );
    const lenderUrl = `http://127.0.0.1:${(lender.address() as { port: number }).port}`;

    const dataDir = mkdtempSync(join(tmpdir(), 'lm-sigterm-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const database = PG_URL ? await scratchDatabase(PG_URL, 'lm_sigterm') : null;
    if (database) cleanups.push(() => database.drop());
    const metricsPort = await freePort();
    const server = await ServerProcess.create({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...(database ? { DATABASE_URL: database.url } : {}),
      PARTNER_SANDBOX: 'on',
      PARTNER_SANDBOX_URL: lenderUrl,
      DELIVERY_POLL_MS: '50',
      DELIVERY_TIMEOUT_MS: '60000',
      DELIVERY_LEASE_MS: '120000',
      METRICS_PORT: String(metricsPort),
      SHUTDOWN_DELAY_MS: '3000',
      SHUTDOWN_TIMEOUT_MS: '10000',
      WEB_DIST: join(dataDir, 'no-web'),
      ADMIN_DIST: join(dataDir, 'no-admin'),
    });
    cleanups.push(() => {
      if (server.running) server.child!.kill('SIGKILL');
    });
    const { url } = server;
    const readyz = `http://127.0.0.1:${metricsPort}/readyz`;
    const call = apiCaller(url);

    await server.start();
    expect((await fetch(readyz)).status).toBe(200);

    // A consent whose leads the inline worker posts to the silent lender.
    expect((await consentOverHttp(call, FORM)).some((c) => c.mode === 'api')).toBe(true);
    for (const until = Date.now() + 20_000; received === 0 && Date.now() < until; ) await sleep(20);
    expect(received, 'a lead is in flight').toBeGreaterThan(0);

    // A request in flight: its body arrives in two halves, the second after SIGTERM.
    const payload = JSON.stringify({ phone: newPhone() });
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let answer = '';
    socket.on('data', (d) => {
      answer += String(d);
    });
    const ended = new Promise<void>((r) => socket.once('close', () => r()));
    socket.write(
      `POST /api/login/sendPhoneVerifyCode HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload.slice(0, 5)}`,
    );
    await sleep(200);

    const exited = new Promise<number | null>((r) => server.child!.once('exit', (c) => r(c)));
    server.child!.kill('SIGTERM');
    let status = 0;
    for (const until = Date.now() + 2500; status !== 503 && Date.now() < until; ) {
      status = (await fetch(readyz)).status;
      if (status !== 503) await sleep(20);
    }
    expect(status, 'not ready at once').toBe(503);
    // The listener closes after the delay.
    const port = Number(new URL(url).port);
    let refused = await probe(port);
    expect(refused, 'the listener still takes connections during the delay').toBe('connected');
    for (const until = Date.now() + 20_000; refused !== 'ECONNREFUSED' && Date.now() < until; ) {
      await sleep(50);
      refused = await probe(port);
    }
    expect(refused).toBe('ECONNREFUSED');

    socket.write(payload.slice(5));
    await ended;
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(answer).toContain('"code":200');

    expect(await exited, server.output).toBe(0);
    expect(server.output).toContain('delivery worker stopped: claims in flight given back');

    const db = await openDatabase(database ? { url: database.url } : { dataDir });
    try {
      const [row] = rowsOf<{ claimed: number | string; pending: number | string }>(
        await db.db.execute(sql`
          select count(*) filter (where locked_until is not null) as claimed,
                 count(*) filter (where status = 'pending') as pending
            from leads`),
      );
      expect(Number(row!.claimed), 'no lead left claimed').toBe(0);
      expect(Number(row!.pending), 'the interrupted leads wait for the next worker').toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 240_000);
});
