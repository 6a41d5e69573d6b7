import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND, body, createTestApp, newIp, newPhone, PG_URL, type TestContext } from '../helpers.ts';

/** PostgreSQL only (run by .ci/run with TEST_DATABASE_URL): connections killed under load. */
let ctx: TestContext;
beforeAll(async () => {
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL-only tests');
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

const send = () =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/login/sendPhoneVerifyCode',
    payload: { phone: newPhone() },
    remoteAddress: newIp(),
  });

describe(`PostgreSQL connections killed under load (${BACKEND})`, () => {
  it('answers 503 while connections are killed and recovers by itself (PostgreSQL)', async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const schema = ctx.shared.schemaName!;
    // Kill every connection of this app, four times, while four clients send codes.
    await Promise.all(Array.from({ length: 5 }, () => ctx.app.inject({ url: '/api/user/health' })));
    const statuses: number[] = [];
    let running = true;
    const worker = async () => {
      for (let i = 0; i < 25; i++) {
        const res = await send();
        statuses.push(res.statusCode);
        expect(typeof body(res).code).toBe('number');
        expect(res.body).not.toMatch(/terminat|ECONN|stack/i);
      }
    };
    const load = Promise.all([worker(), worker(), worker(), worker()]).finally(() => {
      running = false;
    });
    let killed = 0;
    for (let round = 0; round < 4 && running; round++) {
      // The app's connections carry its schema name as application_name.
      const r = await admin.query(
        'select pg_terminate_backend(pid) as t from pg_stat_activity where pid <> pg_backend_pid() and application_name = $1',
        [schema],
      );
      killed += r.rowCount ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await load;
    await admin.end();
    expect(killed).toBeGreaterThan(0);
    // Every answer was a success or the 503 envelope; the process is still here.
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    // Recovered: the next requests succeed.
    const health = await ctx.app.inject({ url: '/api/user/health' });
    expect(body(health).data).toMatchObject({ db: 'ok' });
    const res = await send();
    expect(body(res).code).toBe(200);
  });
});
