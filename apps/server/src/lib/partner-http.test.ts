import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { buildConnector } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  failureReason,
  guardedConnector,
  OutboundError,
  OutboundPolicy,
  PartnerHttp,
  partnerDeadline,
  statusReason,
} from './partner-http.ts';

/** A local HTTP server counting TCP connections and requests. */
class Counted {
  connections = 0;
  readonly requests: string[] = [];
  private server: Server;
  constructor(handler: (url: string, res: import('node:http').ServerResponse) => void) {
    this.server = createServer((req, res) => {
      this.requests.push(req.url ?? '');
      req.resume();
      req.on('end', () => handler(req.url ?? '/', res));
    });
    this.server.on('connection', () => {
      this.connections++;
    });
  }
  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
  }
  get port() {
    return (this.server.address() as AddressInfo).port;
  }
  get origin() {
    return `http://127.0.0.1:${this.port}`;
  }
  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** A promise and its resolver. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
/** Resolved when the caller has given up on /slow (closed the connection). */
let slowClosed = signal();
const target = new Counted((_url, res) => res.end('{"internal":"secret"}'));
const redirector = new Counted((url, res) => {
  if (url === '/big') {
    res.write('a'.repeat(512 * 1024));
    res.end('b'.repeat(512 * 1024));
    return;
  }
  if (url === '/slow') {
    // Never answers: the caller gives up (the connection closes) — no race with a late answer.
    res.on('close', () => slowClosed.resolve());
    return;
  }
  res.writeHead(307, { location: `${target.origin}/latest/meta-data/` });
  res.end('moved');
});

beforeAll(async () => {
  await target.start();
  await redirector.start();
});
afterAll(async () => {
  await target.stop();
  await redirector.stop();
});

const post = (http: PartnerHttp, url: string, timeoutMs = 2000) =>
  http.post(url, { headers: { 'content-type': 'application/json' }, body: '{"lead":1}', timeoutMs });

async function refusal(p: Promise<unknown>): Promise<OutboundError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundError);
    return err as OutboundError;
  }
  throw new Error('expected a refusal');
}

describe('connect-time address check', () => {
  it('a name that now resolves to a forbidden address is refused before any connection', async () => {
    const policy = new OutboundPolicy({ production: true, resolve: async () => ['127.0.0.1'] });
    const http = new PartnerHttp(policy);
    try {
      const before = target.connections;
      const err = await refusal(post(http, `https://rebind.example.org:${target.port}/leads`));
      expect(err.code).toBe('FORBIDDEN_ADDRESS');
      expect(err.reason).toBe('目标地址属于本机回环地址，已拒绝连接');
      expect(err).toMatchObject({ host: 'rebind.example.org', address: '127.0.0.1' });
      expect(target.connections).toBe(before);
      expect(target.requests).toEqual([]);
    } finally {
      await http.close();
    }
  });

  const opts = (hostname: string, port = '443'): buildConnector.Options => ({
    hostname,
    host: port === '443' ? hostname : `${hostname}:${port}`,
    protocol: 'https:',
    port,
  });
  /** Runs the connector once against a fake dialler; answers what was dialled and the outcome. */
  function connectOnce(
    policy: OutboundPolicy,
    o: buildConnector.Options,
    failFirst = false,
  ): Promise<{ dialled: buildConnector.Options[]; error: Error | null }> {
    const dialled: buildConnector.Options[] = [];
    const base: buildConnector.connector = (d, cb) => {
      dialled.push(d);
      if (failFirst && dialled.length === 1)
        cb(Object.assign(new Error('unreachable'), { code: 'ENETUNREACH' }), null);
      else cb(null, {} as never);
    };
    return new Promise((resolve) => {
      guardedConnector(policy, base)(o, (...args) => resolve({ dialled, error: args[0] }));
    });
  }

  it('dials exactly the checked address, keeping the host name for TLS', async () => {
    let asked = 0;
    const policy = new OutboundPolicy({
      production: true,
      resolve: async () => {
        asked++;
        return ['93.184.215.14'];
      },
    });
    const { dialled, error } = await connectOnce(policy, opts('lender.example.com'));
    expect(error).toBeNull();
    expect(asked).toBe(1);
    expect(dialled).toEqual([{ ...opts('lender.example.com'), hostname: '93.184.215.14' }]);
    expect(dialled[0]!.host).toBe('lender.example.com');
  });

  it('tries the next permitted address when one cannot be reached', async () => {
    const policy = new OutboundPolicy({
      production: true,
      resolve: async () => ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', '93.184.215.14'],
    });
    const { dialled, error } = await connectOnce(policy, opts('lender.example.com'), true);
    expect(error).toBeNull();
    expect(dialled.map((d) => d.hostname)).toEqual([
      '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
      '93.184.215.14',
    ]);
  });

  it.each([
    ['mixed answer', 'lender.example.com', ['93.184.215.14', '10.0.0.5']],
    ['metadata', 'lender.example.com', ['169.254.169.254']],
    ['mapped metadata', 'lender.example.com', ['::ffff:a9fe:a9fe']],
    ['Aliyun metadata', 'lender.example.com', ['100.100.100.200']],
    ['literal', '10.0.0.5', ['93.184.215.14']],
    ['IPv6 literal', 'fd00::1', ['93.184.215.14']],
    ['metadata name', 'metadata.google.internal', ['93.184.215.14']],
  ])('refuses a %s without dialling', async (_label, hostname, answer) => {
    const policy = new OutboundPolicy({ production: true, resolve: async () => answer });
    const { dialled, error } = await connectOnce(policy, opts(hostname));
    expect(dialled).toEqual([]);
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).code).toMatch(/^FORBIDDEN_/);
  });

  it('an allow-listed origin is dialled as it is, only outside production', async () => {
    const never = async (): Promise<string[]> => {
      throw new Error('not resolved');
    };
    const entry = { origin: 'http://127.0.0.1:8080', pathPrefix: '/api/dev/partner-sandbox/' };
    const dev = new OutboundPolicy({ production: false, allow: [entry], resolve: never });
    const o = { hostname: '127.0.0.1', host: '127.0.0.1:8080', protocol: 'http:', port: '8080' };
    expect(await connectOnce(dev, o)).toEqual({ dialled: [o], error: null });
    // Another port of the same host is not on the list.
    const other = await connectOnce(dev, { ...o, host: '127.0.0.1:8081', port: '8081' });
    expect(other.dialled).toEqual([]);
    expect((other.error as OutboundError).code).toBe('FORBIDDEN_ADDRESS');
    expect(() => new OutboundPolicy({ production: true, allow: [entry] })).toThrow(/production/);
    expect(() => new OutboundPolicy({ production: true }).permit(entry)).toThrow(/production/);
  });
});

describe('PartnerHttp', () => {
  const allowed = () =>
    new PartnerHttp(
      new OutboundPolicy({
        production: false,
        allow: [
          { origin: redirector.origin, pathPrefix: '/' },
          { origin: target.origin, pathPrefix: '/' },
          { origin: 'http://127.0.0.1:1', pathPrefix: '/' },
        ],
      }),
    );

  it('never follows a redirect: a 307 is answered as it is and its target gets nothing', async () => {
    const http = allowed();
    try {
      const before = target.requests.length;
      const answer = await post(http, `${redirector.origin}/leads`);
      expect(answer.status).toBe(307);
      expect(statusReason(answer.status)).toBe('机构返回重定向（HTTP 307），已拒绝跟随');
      expect(target.requests.length).toBe(before);
    } finally {
      await http.close();
    }
  });

  it('reads at most 8 KB of an answer', async () => {
    const http = allowed();
    try {
      const answer = await post(http, `${redirector.origin}/big`);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe('a'.repeat(8192));
    } finally {
      await http.close();
    }
  });

  it('maps failures to our own short reasons', async () => {
    const http = allowed();
    try {
      slowClosed = signal();
      expect((await refusal(post(http, `${redirector.origin}/slow`, 200))).reason).toBe('超时（200 ms）');
      await slowClosed.promise; // the timed-out request's connection is closed, not left hanging
      expect((await refusal(post(http, 'http://127.0.0.1:1/leads'))).reason).toBe('连接被拒绝');
    } finally {
      await http.close();
    }
    expect(
      failureReason(Object.assign(new Error('x'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }), 1).reason,
    ).toBe('TLS 证书校验失败');
    expect(failureReason(new Error('connect ECONNREFUSED 10.0.0.5:443'), 1).reason).toBe(
      '请求失败（UNKNOWN）',
    );
    expect(statusReason(503)).toBe('HTTP 503');
  });

  it('refuses, without connecting, an endpoint the rules refuse (a row edited behind the console)', async () => {
    const http = new PartnerHttp(
      new OutboundPolicy({ production: false, resolve: async () => ['127.0.0.1'] }),
    );
    try {
      const before = target.connections;
      const plain = await refusal(post(http, `${target.origin}/leads`));
      expect(plain.code).toBe('ENDPOINT_REFUSED');
      expect(plain.reason).toContain('https');
      const literal = await refusal(post(http, `https://2130706433:${target.port}/leads`));
      expect(literal.reason).toContain('本机回环地址（127.0.0.1）');
      expect(target.connections).toBe(before);
    } finally {
      await http.close();
    }
  });
});

describe('partnerDeadline: the partner is charged only for time our loop was free', () => {
  // Timers and Date are faked; setImmediate stays real (the expiry waits for the check phase).
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const checkPhase = () => new Promise((r) => setImmediate(r));

  it('expires once after timeoutMs of a free loop, not before', async () => {
    let expired = 0;
    const d = partnerDeadline(2000, () => expired++, { now: Date.now });
    vi.advanceTimersByTime(1999);
    await checkPhase();
    expect([expired, d.charged()]).toEqual([0, 1900]);
    vi.advanceTimersByTime(1);
    await checkPhase();
    expect([expired, d.charged()]).toEqual([1, 2000]);
    vi.advanceTimersByTime(10_000);
    await checkPhase();
    expect(expired).toBe(1);
  });

  it('a stall of our own loop is not charged: a late tick charges only the tick it asked for', async () => {
    let expired = 0;
    const d = partnerDeadline(2000, () => expired++, { now: Date.now });
    vi.advanceTimersByTime(500);
    expect(d.charged()).toBe(500);
    // The loop was blocked for 10 s (no timer ran); then the tick that was due runs.
    vi.setSystemTime(Date.now() + 10_000);
    vi.advanceTimersByTime(100);
    await checkPhase();
    expect([expired, d.charged()]).toEqual([0, 600]);
    vi.advanceTimersByTime(1399);
    await checkPhase();
    expect(expired).toBe(0);
    vi.advanceTimersByTime(1);
    await checkPhase();
    expect(expired).toBe(1);
  });

  it('an answer read in the turn of the last tick wins: stop() before the check phase', async () => {
    let expired = 0;
    const d = partnerDeadline(300, () => expired++, { now: Date.now });
    vi.advanceTimersByTime(300);
    expect(d.charged()).toBe(300);
    d.stop(); // the poll phase read the answer
    await checkPhase();
    expect(expired).toBe(0);
  });
});

/**
 * A lender in its own thread, so it answers while this thread is blocked: it posts its port, then
 * 'read' for every request it has read, and answers when told to. `/silent` is never answered.
 */
const LENDER_THREAD = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    parentPort.postMessage('read');
    if (req.url !== '/silent') parentPort.once('message', () => res.end('{"id":"on-time"}'));
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

describe('PartnerHttp: a stall of our own process is not charged to the partner', () => {
  const nothing = new Int32Array(new SharedArrayBuffer(4));
  let lender: Worker;
  let origin = '';
  beforeAll(async () => {
    lender = new Worker(LENDER_THREAD, { eval: true });
    origin = `http://127.0.0.1:${await new Promise<number>((r) => lender.once('message', r))}`;
  });
  afterAll(async () => {
    await lender.terminate();
  });
  const http = () =>
    new PartnerHttp(new OutboundPolicy({ production: false, allow: [{ origin, pathPrefix: '/' }] }));

  /**
   * Posts, waits until the lender has read the request, tells it to answer and blocks this thread
   * for `stallMs` in the check phase: the answer arrives while we are blocked, and the next phase is
   * the timers' (a wall-clock timeout would fire there, before the poll phase reads the answer
   * waiting in the socket). Answers the call's answer or error.
   */
  async function stalledCall(client: PartnerHttp, path: string, timeoutMs: number, stallMs: number) {
    const read = new Promise((r) => lender.once('message', r));
    const call = post(client, `${origin}${path}`, timeoutMs).then(
      (a) => a,
      (e: unknown) => e,
    );
    expect(await read).toBe('read');
    await new Promise((r) => setImmediate(r));
    lender.postMessage('answer');
    expect(Atomics.wait(nothing, 0, 0, stallMs)).toBe('timed-out');
    return call;
  }

  it('an answer that came while this thread was blocked for 3× the timeout is read, not a timeout', async () => {
    const client = http();
    try {
      const answer = await stalledCall(client, '/leads', 1000, 3000);
      expect(answer).toEqual({ status: 200, text: '{"id":"on-time"}' });
    } finally {
      await client.close();
    }
  });

  it('a partner that never answers still times out after the stall', async () => {
    const client = http();
    try {
      const err = await stalledCall(client, '/silent', 200, 1000);
      expect(err).toBeInstanceOf(OutboundError);
      expect((err as OutboundError).reason).toBe('超时（200 ms）');
    } finally {
      await client.close();
    }
  });
});
