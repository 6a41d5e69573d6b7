import { describe, expect, it } from 'vitest';
import {
  endpointAddressProblem,
  endpointProblem,
  forbiddenAddressKind,
  hostNameProblem,
  isForbiddenAddress,
  parseOriginList,
  type Resolver,
  resolvePermitted,
  sandboxAllowEntries,
} from './outbound-address.ts';

const strict = { production: true, allow: [] };
const dev = { production: false, allow: sandboxAllowEntries('http://127.0.0.1:8080') };

describe('forbidden addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.5', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'linkLocal'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['169.254.0.23', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'sharedAddress'],
    ['100.127.255.254', 'sharedAddress'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.0.192', 'metadata'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd00::1', 'private'],
    ['fdff:ffff::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['febf::1', 'linkLocal'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['ff05::2', 'multicast'],
    // IPv4-mapped and translated forms count as the IPv4 address they carry.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:10.0.0.5', 'private'],
    ['::ffff:100.100.100.200', 'metadata'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['[::ffff:192.168.0.1]', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::10.0.0.5', 'private'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b:1::1', 'reserved'],
    // IPv4-compatible (deprecated), SIIT, 6to4, Teredo, documentation, discard.
    ['::7f00:1', 'reserved'],
    ['::a9fe:a9fe', 'reserved'],
    // ipaddr.js reads the dotted form as IPv4-mapped: forbidden either way.
    ['::127.0.0.1', 'loopback'],
    ['::ffff:0:7f00:1', 'reserved'],
    ['2002:7f00:1::1', 'reserved'],
    ['2001:0:4136:e378::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
    // Not an address at all, or a spelling the WHATWG parser would have normalised first.
    ['0x7f.1', 'reserved'],
    ['2130706433', 'reserved'],
    ['example.com', 'reserved'],
  ])('%s is %s', (ip, kind) => {
    expect(forbiddenAddressKind(ip)).toBe(kind);
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '169.253.255.255',
    '11.0.0.1',
    '223.255.255.254',
    '2606:4700:4700::1111',
    '2400:cb00::1',
    '::ffff:93.184.215.14',
    '64:ff9b::8.8.8.8',
  ])('%s is a public unicast address', (ip) => {
    expect(forbiddenAddressKind(ip)).toBeNull();
  });
});

describe('host names', () => {
  it.each([
    ['metadata.google.internal', '元数据'],
    ['metadata.google.internal.', '元数据'],
    ['METADATA.GOOGLE.INTERNAL', '元数据'],
    ['metadata.goog', '元数据'],
    ['metadata.tencentyun.com', '元数据'],
    ['a.metadata.tencentyun.com', '元数据'],
    ['localhost', '本机'],
    ['api.localhost', '本机'],
    ['instance-data.ec2.internal', '内网域名'],
    ['db.corp', '内网域名'],
    ['printer.local', '内网域名'],
    ['kubernetes.default.svc', '内网域名'],
    ['redis.default.svc.cluster.local', '内网域名'],
    ['1.0.0.127.in-addr.arpa', '内网域名'],
    ['router.home.arpa', '内网域名'],
    ['box.lan', '内网域名'],
    ['metadata', '完整的公网域名'],
    ['instance-data', '完整的公网域名'],
    ['redis', '完整的公网域名'],
  ])('%s is refused (%s)', (name, text) => {
    expect(hostNameProblem(name)).toContain(text);
  });

  it('public names pass (their DNS answer is checked separately)', () => {
    expect(hostNameProblem('lender.example.com')).toBeNull();
    expect(hostNameProblem('api.partner-a.com.cn')).toBeNull();
    expect(hostNameProblem('internal-api.lender.com')).toBeNull();
  });
});

describe('endpointProblem', () => {
  it.each([
    // The endpoints, in every mode.
    ['https://169.254.169.254/latest/meta-data/', '云服务器元数据地址（169.254.169.254）'],
    ['https://10.0.0.5/leads', '内网地址（10.0.0.5）'],
    ['https://metadata.google.internal/computeMetadata/v1/', '云服务器元数据服务'],
    ['https://100.100.100.200/latest/meta-data/', '云服务器元数据地址（100.100.100.200）'],
    ['https://[fd00::1]/leads', '内网地址（fd00::1）'],
    // Numeric and odd IPv4 spellings mean what they say.
    ['https://2130706433/leads', '本机回环地址（127.0.0.1）'],
    ['https://0x7f.1/leads', '本机回环地址（127.0.0.1）'],
    ['https://0x7f000001/leads', '本机回环地址（127.0.0.1）'],
    ['https://017700000001/leads', '本机回环地址（127.0.0.1）'],
    ['https://0177.0.0.1/leads', '本机回环地址（127.0.0.1）'],
    ['https://127.1/leads', '本机回环地址（127.0.0.1）'],
    ['https://%31%32%37.0.0.1/leads', '本机回环地址（127.0.0.1）'],
    ['https://127。0。0。1/leads', '本机回环地址（127.0.0.1）'],
    ['https://0/leads', '未指定地址（0.0.0.0）'],
    ['https://0xa9fea9fe/leads', '云服务器元数据地址（169.254.169.254）'],
    ['https://[::1]/leads', '本机回环地址（::1）'],
    ['https://[::]/leads', '未指定地址（::）'],
    ['https://[::ffff:169.254.169.254]/leads', '云服务器元数据地址（::ffff:a9fe:a9fe）'],
    ['https://[::ffff:a9fe:a9fe]/leads', '云服务器元数据地址'],
    ['https://[0:0:0:0:0:ffff:7f00:1]/leads', '本机回环地址'],
    ['https://[64:ff9b::a9fe:a9fe]/leads', '云服务器元数据地址'],
    ['https://[fe80::1]/leads', '链路本地地址'],
    ['https://[ff02::1]/leads', '组播地址'],
    ['https://224.0.0.251/leads', '组播地址'],
    ['https://100.64.0.1/leads', '运营商共享地址'],
    ['https://localhost/leads', '不能指向本机'],
    ['https://LOCALHOST:8443/leads', '不能指向本机'],
    ['https://a.localhost/leads', '不能指向本机'],
    ['https://metadata/computeMetadata/v1/', '完整的公网域名'],
    ['https://metadata.tencentyun.com/latest/meta-data/', '云服务器元数据服务'],
  ])('refuses %s', (url, text) => {
    for (const rules of [strict, dev]) expect(endpointProblem(url, rules)).toContain(text);
  });

  it('refuses http (also to loopback and a decimal host), credentials and non-URLs', () => {
    expect(endpointProblem('http://2130706433/leads', strict)).toBe('必须使用 https 地址');
    expect(endpointProblem('http://2130706433/leads', dev)).toContain('https');
    expect(endpointProblem('http://127.0.0.1:9999/leads', dev)).toContain('https');
    expect(endpointProblem('http://localhost/leads', dev)).toContain('https');
    expect(endpointProblem('http://lender.example.com/leads', dev)).toContain('https');
    expect(endpointProblem('ftp://lender.example.com', dev)).toContain('https');
    expect(endpointProblem('https://user:pw@lender.example.com', strict)).toContain('用户名或密码');
    expect(endpointProblem('https://user@127.0.0.1:8080/api/dev/partner-sandbox/x', dev)).toContain(
      '用户名或密码',
    );
    expect(endpointProblem('not a url', strict)).toBe('不是有效的网址');
    expect(endpointProblem('https://[fe80::1%25eth0]/', strict)).toBe('不是有效的网址');
  });

  it('accepts public https hosts', () => {
    expect(endpointProblem('https://lender.example.com/leads', strict)).toBeNull();
    expect(endpointProblem('https://93.184.215.14:8443/leads', strict)).toBeNull();
    expect(endpointProblem('https://[2606:4700::1]/leads', strict)).toBeNull();
  });

  it('the sandbox entry admits exactly its origin and paths, and never in production', () => {
    const sandbox = 'http://127.0.0.1:8080/api/dev/partner-sandbox/partner-a/leads';
    expect(endpointProblem(sandbox, dev)).toBeNull();
    expect(endpointProblem(sandbox, { ...dev, production: true })).toBe('必须使用 https 地址');
    // Another path, port or spelling of the same server is not the sandbox.
    expect(endpointProblem('http://127.0.0.1:8080/api/admin/partners', dev)).toContain('https');
    expect(endpointProblem('http://127.0.0.1:8080/api/dev/partner-sandboxes/x', dev)).toContain('https');
    expect(endpointProblem('http://127.0.0.1:8081/api/dev/partner-sandbox/a/leads', dev)).toContain('https');
    expect(endpointProblem('http://2130706433:8080/api/dev/partner-sandbox/a/leads', dev)).toBeNull();
    expect(endpointProblem('https://127.0.0.1:8080/api/dev/partner-sandbox/a/leads', dev)).toContain(
      '本机回环地址',
    );
  });
});

describe('DNS answers', () => {
  const dns =
    (table: Record<string, string[]>): Resolver =>
    async (host) => {
      const a = table[host];
      if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return a;
    };
  const resolver = dns({
    'lender.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'internal.example.com': ['10.0.0.5'],
    'mixed.example.com': ['93.184.215.14', '127.0.0.1'],
    'mapped.example.com': ['::ffff:169.254.169.254'],
    'nip.example.com': ['169.254.169.254'],
  });

  it('refuses a name when any address it resolves to is forbidden', async () => {
    expect(await endpointAddressProblem('https://lender.example.com/leads', strict, resolver)).toBeNull();
    expect(await endpointAddressProblem('https://internal.example.com/leads', strict, resolver)).toBe(
      '的域名解析到了内网地址（internal.example.com → 10.0.0.5），不能使用',
    );
    expect(await endpointAddressProblem('https://mixed.example.com/x', strict, resolver)).toContain(
      '本机回环地址（mixed.example.com → 127.0.0.1）',
    );
    expect(await endpointAddressProblem('https://mapped.example.com/x', strict, resolver)).toContain(
      '云服务器元数据地址',
    );
    expect(await endpointAddressProblem('https://nip.example.com/x', strict, resolver)).toContain(
      '云服务器元数据地址',
    );
  });

  it('refuses a name that does not resolve, or not in time', async () => {
    expect(await endpointAddressProblem('https://nowhere.example.com/x', strict, resolver)).toBe(
      '的域名无法解析（nowhere.example.com），请确认域名已生效',
    );
    const hanging: Resolver = () => new Promise(() => {});
    expect(await endpointAddressProblem('https://slow.example.com/x', strict, hanging, 50)).toContain(
      '暂时无法解析',
    );
    const empty: Resolver = async () => [];
    expect(await endpointAddressProblem('https://empty.example.com/x', strict, empty)).toContain('无法解析');
  });

  it('does not resolve literals, refused names or allow-listed URLs', async () => {
    const never: Resolver = async () => {
      throw new Error('must not be asked');
    };
    expect(await endpointAddressProblem('https://93.184.215.14/x', strict, never)).toBeNull();
    expect(await endpointAddressProblem('https://10.0.0.5/x', strict, never)).toContain('内网地址');
    expect(await endpointAddressProblem('https://metadata.google.internal/', strict, never)).toContain(
      '元数据',
    );
    expect(
      await endpointAddressProblem('http://127.0.0.1:8080/api/dev/partner-sandbox/a/dup-check', dev, never),
    ).toBeNull();
  });

  it('resolvePermitted answers every address of a permitted name', async () => {
    expect(await resolvePermitted('lender.example.com', resolver)).toEqual({
      ok: true,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
    expect(await resolvePermitted('[::1]', resolver)).toMatchObject({ ok: false, kind: 'loopback' });
    expect(await resolvePermitted('internal.example.com', resolver)).toMatchObject({
      ok: false,
      kind: 'private',
      address: '10.0.0.5',
    });
  });
});

describe('allow-list values', () => {
  it('PARTNER_TEST_ORIGINS takes exact origins only', () => {
    expect(parseOriginList('http://127.0.0.1:40123, http://127.0.0.1:40124')).toEqual([
      { origin: 'http://127.0.0.1:40123', pathPrefix: '/' },
      { origin: 'http://127.0.0.1:40124', pathPrefix: '/' },
    ]);
    for (const bad of [
      'http://127.0.0.1:40123/leads',
      'http://u@127.0.0.1:1',
      '127.0.0.1:1',
      'ftp://127.0.0.1:21',
      'http://127.0.0.1:1?x',
    ]) {
      expect(() => parseOriginList(bad), bad).toThrow();
    }
  });

  it('the sandbox entries (partners, ad platforms) keep the base path', () => {
    expect(sandboxAllowEntries('http://localhost:8080/')).toEqual([
      { origin: 'http://localhost:8080', pathPrefix: '/api/dev/partner-sandbox/' },
      { origin: 'http://localhost:8080', pathPrefix: '/api/dev/ad-sandbox/' },
    ]);
    expect(sandboxAllowEntries('http://127.0.0.1:4000/base')).toEqual([
      { origin: 'http://127.0.0.1:4000', pathPrefix: '/base/api/dev/partner-sandbox/' },
      { origin: 'http://127.0.0.1:4000', pathPrefix: '/base/api/dev/ad-sandbox/' },
    ]);
  });
});
