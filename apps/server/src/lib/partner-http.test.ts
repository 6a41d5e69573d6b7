import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failureReason,
  guardedConnector,
  OutboundError,
  OutboundPolicy,
  PartnerHttp,
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

const target = new Counted((_url, res) => res.end('{"internal":"secret"}'));
const redirector = new Counted((url, res) => {
  if (url === '/big') {
    res.write('a'.repeat(512 * 1024));
    res.end('b'.repeat(512 * 1024));
    return;
  }
  if (url === '/slow') {
    setTimeout(() => res.end('late'), 1000);
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
      expect((await refusal(post(http, `${redirector.origin}/slow`, 200))).reason).toBe('超时（200 ms）');
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
