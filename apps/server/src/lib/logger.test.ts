import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl } from './logger.ts';

describe('redactUrl', () => {
  it('replaces the values of sensitive query keys, however the key is written', () => {
    expect(redactUrl('/api/dev/sms-outbox?phone=13812345678')).toBe(
      '/api/dev/sms-outbox?phone=%5BREDACTED%5D',
    );
    expect(redactUrl('/x?a=1&Token=abc&code=123456')).toBe('/x?a=1&Token=%5BREDACTED%5D&code=%5BREDACTED%5D');
    // A percent-encoded key is the same key to the server.
    expect(redactUrl('/x?%70hone=13812345678')).not.toContain('13812345678');
    expect(redactUrl('/x?realName=%E5%BC%A0%E4%B8%89&rp=1')).toBe(
      '/x?realName=%5BREDACTED%5D&rp=%5BREDACTED%5D',
    );
    expect(redactUrl('/x?name')).toBe('/x?name=%5BREDACTED%5D');
  });

  it('keeps a URL without sensitive keys as it came (keys that only contain one are not sensitive)', () => {
    for (const url of [
      '/api/adChannel/h5Config?adChannelCode=demo',
      '/api/reportAdChannelClick?adChannelCode=demo&fingerprint=f3b2&abTestType=1',
      '/login',
      '/?adChannelCode=demo-skin8&nickname=x&phoneBrand=y',
    ])
      expect(redactUrl(url)).toBe(url);
  });
});

describe("request lines (Fastify's, through the app's logger options)", () => {
  async function app(level: string) {
    const lines: Record<string, unknown>[] = [];
    const server = Fastify({
      logger: { ...loggerOptions(level), stream: { write: (l: string) => void lines.push(JSON.parse(l)) } },
    });
    server.get('/ok', async () => ({ ok: true }));
    server.get('/quiet', { logLevel: 'warn' }, async () => ({ ok: true }));
    server.get('/route-info', { logLevel: 'info' }, async () => ({ ok: true }));
    server.post('/echo', async (req) => {
      req.log.info({ body: req.body }, 'route line');
      return { ok: true };
    });
    server.get('/boom', async () => {
      throw Object.assign(new Error('failed'), { phone: '13812345678' });
    });
    await server.ready();
    return { server, lines };
  }

  it("writes Fastify's two lines with the request id, method, redacted URL, IP, status and time", async () => {
    const { server, lines } = await app('info');
    const res = await server.inject({ url: '/ok?phone=13812345678&adChannelCode=demo' });
    expect(res.statusCode).toBe(200);
    expect(lines).toHaveLength(2);
    const [incoming, completed] = lines as [Record<string, unknown>, Record<string, unknown>];
    expect(Object.keys(incoming)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'req', 'msg']);
    expect(incoming).toMatchObject({
      level: 30,
      reqId: expect.any(String),
      req: { method: 'GET', url: '/ok?phone=%5BREDACTED%5D&adChannelCode=demo', ip: '127.0.0.1' },
      msg: 'incoming request',
    });
    expect(Object.keys(completed)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'res',
      'responseTime',
      'msg',
    ]);
    expect(completed).toMatchObject({
      level: 30,
      reqId: incoming.reqId,
      res: { statusCode: 200 },
      msg: 'request completed',
    });
    expect(completed.responseTime).toEqual(expect.any(Number));
    expect(JSON.stringify(lines)).not.toContain('13812345678');
    await server.close();
  });

  it("writes none below the level, the route's or the app's", async () => {
    const quiet = await app('warn');
    await quiet.server.inject({ url: '/ok' });
    expect(quiet.lines).toEqual([]);
    // A route's own level decides for its requests, both ways.
    await quiet.server.inject({ url: '/route-info' });
    expect(quiet.lines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    await quiet.server.close();
    const loud = await app('info');
    await loud.server.inject({ url: '/quiet' });
    expect(loud.lines).toEqual([]);
    // The app's level changed at run time applies to the next request.
    loud.server.log.level = 'warn';
    await loud.server.inject({ url: '/ok' });
    expect(loud.lines).toEqual([]);
    await loud.server.close();
  });

  it("keeps the redaction on every other line: a route's own and an error's", async () => {
    const { server, lines } = await app('info');
    await server.inject({
      method: 'POST',
      url: '/echo',
      payload: { phone: '13812345678', idCard: '11010519491231002X' },
    });
    const own = lines.find((l) => l.msg === 'route line');
    expect(own).toMatchObject({ body: { phone: '[REDACTED]', idCard: '[REDACTED]' } });
    await server.inject({ url: '/boom' });
    expect(JSON.stringify(lines)).not.toContain('13812345678');
    expect(JSON.stringify(lines)).not.toContain('11010519491231002X');
    expect(lines.filter((l) => l.level === 50).length).toBeGreaterThan(0);
    // Every line of a request carries its id.
    expect(lines.every((l) => typeof l.reqId === 'string')).toBe(true);
    await server.close();
  });
});
