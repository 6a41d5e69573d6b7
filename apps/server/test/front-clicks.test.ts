import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { channelClicks } from '../src/db/schema.ts';
import { CLICKS_PER_IP_PER_HOUR } from '../src/modules/channels/service.ts';
import { newIp, useListeningTestApp } from './helpers.ts';
import { type Raw, rawHeader, requestLinesOf, sendRaw } from './raw-http.ts';

/**
 * The ad burst's click report taken in front of Fastify (lib/front-answers.ts, ADR 046), through a real
 * listening server: every answer the same bytes as the route's own (asked through inject(), which does not go
 * through the server's request listener), the click stored as the route stores it, failures in the same
 * envelope, and a query the schema refuses left to Fastify.
 */
const { ctx, logLines, port: portOf } = useListeningTestApp();

const CLICK = '/api/reportAdChannelClick';
const served = () => ctx.app.frontAnswers.served;
/** Through the server's request listener (the front), from a visitor behind the trusted proxy. */
const front = (query: string, ip: string, headers: Record<string, string> = {}) =>
  sendRaw(portOf(), `${CLICK}?${query}`, { 'x-forwarded-for': ip, ...headers });
/** The route's own answer (inject() goes straight to Fastify), as a Raw: header names and values in order. */
async function routed(query: string, ip: string, headers: Record<string, string> = {}): Promise<Raw> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `${CLICK}?${query}`,
    headers: { 'x-forwarded-for': ip, ...headers },
  });
  return {
    status: res.statusCode,
    headers: Object.entries(res.headers).flatMap(([name, value]) => [name, String(value)]),
    body: res.rawPayload,
  };
}
/** The headers an answer has besides what differs per answer (request id) or comes from the transport. */
const ownHeaders = (raw: Raw) => {
  const out: string[] = [];
  for (let i = 0; i < raw.headers.length; i += 2) {
    const name = raw.headers[i]!.toLowerCase();
    if (/^(date|connection|keep-alive|x-request-id)$/.test(name)) continue;
    out.push(name, raw.headers[i + 1]!);
  }
  return out;
};
const expectSameAnswer = (taken: Raw, route: Raw) => {
  expect(taken.status).toBe(route.status);
  expect(ownHeaders(taken)).toEqual(ownHeaders(route));
  expect(taken.body.toString('utf8')).toBe(route.body.toString('utf8'));
  // The request id comes first, as the app's onRequest hook sets it.
  expect(taken.headers[0]!.toLowerCase()).toBe('x-request-id');
};
const json = (raw: Raw) =>
  JSON.parse(raw.body.toString('utf8')) as { code: number; msg: string; data: unknown };

describe('the click report in front of Fastify', () => {
  it('answers new, repeated and flagged clicks as the route does, and stores them as the route does', async () => {
    const fp = `front-click-${Date.now().toString(36)}`;
    const before = served();
    const ip = newIp();
    const counted = await front(`adChannelCode=demo&fingerprint=${fp}`, ip);
    const repeated = await front(`adChannelCode=demo&fingerprint=${fp}`, ip);
    // The fingerprint from the H5's platform_param header when the query has none.
    const viaHeader = await front('adChannelCode=demo-skin8', ip, {
      platform_param: JSON.stringify({ channel: 0, fingerprint: `${fp}-header` }),
    });
    const flagged = await front('adChannelCode=demo&abTestType=1', ip);
    expect(served()).toBe(before + 4);
    expect([counted, repeated, viaHeader, flagged].map((r) => json(r).data)).toEqual([
      { counted: true, flagged: false },
      { counted: false, flagged: false },
      { counted: true, flagged: false },
      { counted: false, flagged: true },
    ]);
    // The route's answers to the same kinds of click, from another device.
    expectSameAnswer(counted, await routed(`adChannelCode=demo&fingerprint=${fp}-route`, ip));
    expectSameAnswer(repeated, await routed(`adChannelCode=demo&fingerprint=${fp}-route`, ip));
    expectSameAnswer(flagged, await routed('adChannelCode=demo', ip));
    expect(served(), 'inject() never reaches the front').toBe(before + 4);

    await ctx.app.services.channels.settleClicks();
    const rows = await ctx.app.database.db
      .select()
      .from(channelClicks)
      .where(and(eq(channelClicks.ip, ip), eq(channelClicks.abTestType, 1)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ adChannelCode: 'demo', fingerprintHash: null, flagged: true });
    const all = await ctx.app.database.db.select().from(channelClicks).where(eq(channelClicks.ip, ip));
    // Five clicks stored (the repeated ones add nothing): two devices on demo, one on skin 8, two flagged.
    expect(all.map((r) => r.adChannelCode).sort()).toEqual(['demo', 'demo', 'demo', 'demo', 'demo-skin8']);
    expect(all.filter((r) => r.flagged)).toHaveLength(2);
  });

  it('answers an unknown channel with the route’s 404, and leaves a refused query to Fastify', async () => {
    const ip = newIp();
    const before = served();
    const unknown = await front('adChannelCode=no-such-channel&fingerprint=x1', ip);
    expect(served()).toBe(before + 1);
    expect(unknown.status).toBe(404);
    expectSameAnswer(unknown, await routed('adChannelCode=no-such-channel&fingerprint=x1', ip));

    // The schema refuses these: Fastify's 400 names the field; the front takes none of them.
    for (const query of [
      'fingerprint=x1',
      'adChannelCode=demo&abTestType=ab',
      'adChannelCode=a&adChannelCode=b',
    ]) {
      const refused = await front(query, ip);
      expect(refused.status, query).toBe(400);
      expectSameAnswer(refused, await routed(query, ip));
    }
    // Without a query at all the address is not the front's either.
    expect((await sendRaw(portOf(), CLICK)).status).toBe(400);
    expect(served()).toBe(before + 1);
  });

  it('answers past the per-IP limit with the same 429 as the route', async () => {
    const ip = newIp();
    for (let i = 0; i < CLICKS_PER_IP_PER_HOUR; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, CLICKS_PER_IP_PER_HOUR - i) }, (_, j) =>
          front(`adChannelCode=demo&fingerprint=limit-${i + j}`, ip),
        ),
      );
      expect(batch.every((r) => r.status === 200)).toBe(true);
    }
    const refused = await front('adChannelCode=demo&fingerprint=limit-over', ip);
    expect(refused.status).toBe(429);
    expect(json(refused)).toMatchObject({ code: 429, data: { retryAfter: expect.any(Number) } });
    expectSameAnswer(refused, await routed('adChannelCode=demo&fingerprint=limit-over-route', ip));
    // Another visitor is not refused.
    expect((await front('adChannelCode=demo&fingerprint=limit-other', newIp())).status).toBe(200);
  });

  it("keeps the app's request id, client address, request lines and histogram", async () => {
    const histogram = async (status: number) => {
      const text = await ctx.app.metrics.registry.metrics();
      const line = text
        .split('\n')
        .find(
          (l) => /_count\{/.test(l) && l.includes(`route="${CLICK}"`) && l.includes(`status="${status}"`),
        );
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const counted = await histogram(200);
    const before = served();
    logLines.length = 0;
    const query = `adChannelCode=demo&fingerprint=lines-${Date.now().toString(36)}`;
    const res = await front(query, '203.0.113.44', { 'x-request-id': 'edge-click-0001' });
    expect(served()).toBe(before + 1);
    expect(rawHeader(res, 'x-request-id')).toBe('edge-click-0001');
    expect(await histogram(200)).toBe(counted + 1);
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual(requestLinesOf('edge-click-0001', `${CLICK}?${query}`, '203.0.113.44'));
    // The click's stored address is the visitor's, not the proxy's.
    await ctx.app.services.channels.settleClicks();
    const rows = await ctx.app.database.db
      .select({ ip: channelClicks.ip })
      .from(channelClicks)
      .where(eq(channelClicks.ip, '203.0.113.44'));
    expect(rows).toHaveLength(1);
  });

  it('sends a draining instance’s clicks to Fastify, which closes the connection', async () => {
    const before = served();
    ctx.app.draining = true;
    try {
      const res = await front('adChannelCode=demo&fingerprint=draining', newIp());
      expect(res.status).toBe(200);
      expect(rawHeader(res, 'connection')).toBe('close');
      expect(served()).toBe(before);
    } finally {
      ctx.app.draining = false;
    }
  });
});
