import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/env.ts';
import { BACKEND, body, createTestApp, newPhone, type TestContext } from './helpers.ts';

/**
 * TRUST_PROXY (issue 19.3): only the listed reverse proxies may name the visitor with
 * X-Forwarded-For. Observed through the per-address SMS cap (SMS_IP_HOURLY_LIMIT): whose address a
 * send is counted on is whose address the server believes.
 */
function problems(value: string): string[] {
  try {
    loadConfig({ TRUST_PROXY: value });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('TRUST_PROXY configuration', () => {
  it('takes addresses and CIDR ranges, IPv4 and IPv6', () => {
    expect(loadConfig({ TRUST_PROXY: ' 127.0.0.1, 10.0.1.0/24 ,::1,fd00::/8' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.1.0/24',
      '::1',
      'fd00::/8',
    ]);
  });

  it('trusts nobody when unset or off', () => {
    for (const v of [undefined, '', 'false', '0', 'off']) {
      expect(loadConfig(v === undefined ? {} : { TRUST_PROXY: v }).TRUST_PROXY).toBe(false);
    }
  });

  it('refuses a bare yes, every address, and what is not an address', () => {
    for (const v of ['true', '1', 'yes']) {
      expect(problems(v).join('\n')).toMatch(/^TRUST_PROXY: list the proxy addresses/);
    }
    expect(problems('0.0.0.0/0')).toEqual([expect.stringContaining('is every address')]);
    expect(problems('::/0')).toEqual([expect.stringContaining('is every address')]);
    expect(problems('10.0.0.0/33')).toEqual([expect.stringContaining('prefix length must be 0 to 32')]);
    expect(problems('fd00::/129')).toEqual([expect.stringContaining('0 to 128')]);
    expect(problems('proxy.internal')).toEqual([expect.stringContaining('not an IP address')]);
    expect(problems('10.0.0.1/8/8')).toEqual([expect.stringContaining('not an IP address')]);
    // Every bad entry is named, the good ones are not.
    const listed = problems('127.0.0.1,10.0.0.300,lb');
    expect(listed).toHaveLength(2);
    expect(listed.join('\n')).toContain('10.0.0.300');
    expect(listed.join('\n')).toContain('"lb"');
  });
});

const PROXIES = '127.0.0.1,198.18.0.0/24';
const CAP = 2;
let ctx: TestContext;

/** A documentation-range address (RFC 5737 TEST-NET-1) not used before in this file. */
let visitorCounter = 0;
const nextVisitor = () => `192.0.2.${++visitorCounter}`;

function send(c: TestContext, peer: string, forwardedFor?: string) {
  return c.app.inject({
    method: 'POST',
    url: '/api/login/sendPhoneVerifyCode',
    payload: { phone: newPhone() },
    remoteAddress: peer,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });
}

const IP_CAP_MSG = '当前网络获取验证码过于频繁';

describe(`X-Forwarded-For and the per-address limit, TRUST_PROXY=${PROXIES} (${BACKEND})`, () => {
  beforeAll(async () => {
    ctx = await createTestApp({ env: { TRUST_PROXY: PROXIES, SMS_IP_HOURLY_LIMIT: String(CAP) } });
  });
  afterAll(async () => ctx?.close());

  it('a peer that is not a trusted proxy is counted on its own address, whatever header it sends', async () => {
    const peer = nextVisitor();
    for (let i = 0; i < CAP; i++) {
      const res = await send(ctx, peer, nextVisitor());
      expect(res.statusCode, res.body).toBe(200);
    }
    const refused = await send(ctx, peer, nextVisitor());
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toContain(IP_CAP_MSG);
  });

  it('behind a trusted proxy each visitor has their own count, not the proxy', async () => {
    const proxy = '198.18.0.7';
    const a = nextVisitor();
    const b = nextVisitor();
    // 2 × CAP sends through one proxy address: all pass, as they come from two visitors.
    for (let i = 0; i < CAP; i++) {
      expect((await send(ctx, proxy, a)).statusCode).toBe(200);
      expect((await send(ctx, '127.0.0.1', b)).statusCode).toBe(200);
    }
    // The visitor's next send is refused, from either proxy.
    const refused = await send(ctx, '127.0.0.1', a);
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toContain(IP_CAP_MSG);
    // A request from the proxy itself, with no header, is the proxy's own (not a visitor's) count.
    expect((await send(ctx, proxy)).statusCode).toBe(200);
  });

  it("a visitor cannot choose its address by sending the header through the proxy: the proxy's hop counts", async () => {
    // The proxy appends the address it saw: "<what the visitor wrote>, <visitor>". Only trusted
    // hops are skipped, so the visitor's own address is the one counted.
    const real = nextVisitor();
    for (let i = 0; i < CAP; i++) {
      expect((await send(ctx, '127.0.0.1', `${nextVisitor()}, ${real}`)).statusCode).toBe(200);
    }
    const refused = await send(ctx, '127.0.0.1', `${nextVisitor()}, ${real}`);
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toContain(IP_CAP_MSG);
  });
});

describe(`X-Forwarded-For without TRUST_PROXY (${BACKEND})`, () => {
  let plain: TestContext;
  beforeAll(async () => {
    plain = await createTestApp({ env: { SMS_IP_HOURLY_LIMIT: String(CAP) } });
  });
  afterAll(async () => plain?.close());

  it('the header is never believed, even from loopback', async () => {
    for (let i = 0; i < CAP; i++) {
      expect((await send(plain, '127.0.0.1', nextVisitor())).statusCode).toBe(200);
    }
    const refused = await send(plain, '127.0.0.1', nextVisitor());
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toContain(IP_CAP_MSG);
  });
});
