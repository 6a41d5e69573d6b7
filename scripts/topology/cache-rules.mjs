// The micro-cache's rules in deploy/nginx.conf (ADR 062), checked without a database: nginx with the shipped
// configuration in front of a stub instance that answers as the API's contract says — `s-maxage` on shared
// answers, the page's X-Shared-Key (modules/channels/pages.ts `sharedPageKey`), `no-cache`/`private` on the
// rest — and scripted departures from it. What is checked is nginx's part: which requests are looked up,
// stored and given from the cache. The real API behind the same configuration: scripts/topology/cache.mjs.
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { makeClient } from '../../bench/journey-steps.mjs';
import { freePort, sleep, startChild } from '../../bench/lib.mjs';
import { writeNginxConfig } from './nginx.mjs';

const SHARED_PAGE = 'public, max-age=0, s-maxage=5';
const SHARED_H5 = 'public, max-age=30, s-maxage=5';

/** The key the server names for a shared page (pageAddressOf + pageLinkOf + sharedPageKey, for plain codes). */
function serverKey(url) {
  const u = new URL(url, 'http://stub');
  const bare = u.pathname.replace(/\/+$/, '') || '/';
  const q = u.searchParams;
  const code = ['adChannelCode', 'source', 'apiChannelCode'].map((k) => q.get(k)?.trim()).find(Boolean) ?? '';
  const route = q.get('adRouteCode')?.trim() ?? '';
  return `${bare}|${encodeURIComponent(route)}|${encodeURIComponent(code)}`;
}

/** The stub instance: its answers by the code the link names; every request counted. */
function stub() {
  const seen = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const u = new URL(req.url, 'http://stub');
    const code = u.searchParams.get('adChannelCode') ?? u.searchParams.get('source') ?? '';
    const headers = { 'content-type': 'text/plain; charset=utf-8', 'x-request-id': `stub-${seen.length}` };
    if (u.pathname === '/api/adChannel/h5Config') {
      headers['cache-control'] = code.startsWith('ab') ? 'private, max-age=30' : SHARED_H5;
      headers.vary = 'accept-encoding';
    } else if (u.pathname.startsWith('/api/')) {
      // Another API answer that (wrongly) says it is shared: nginx must still not keep it.
      headers['cache-control'] = SHARED_H5;
    } else if (code.startsWith('ab')) {
      headers['cache-control'] = 'no-cache'; // an A/B channel's page: the visitor's arm
    } else {
      headers['cache-control'] = SHARED_PAGE;
      // `other`: the server read the link otherwise than nginx (names another key than nginx computed).
      headers['x-shared-key'] = code === 'other' ? '/||someone-else' : serverKey(req.url);
      if (code === 'cookie') headers['set-cookie'] = 'a=1';
    }
    res.writeHead(200, headers);
    res.end(`answer ${seen.length} for ${code}`);
  });
  return { server, seen };
}

export async function checkCacheRules(dir, { cert, key, ca, check }) {
  const [httpsPort, httpPort, stubPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const { server, seen } = stub();
  await new Promise((resolve) => server.listen(stubPort, '127.0.0.1', resolve));
  const rulesDir = path.join(dir, 'cache-rules');
  mkdirSync(rulesDir, { recursive: true });
  const conf = writeNginxConfig(rulesDir, { cert, key, httpsPort, httpPort, apiPorts: [stubPort] });
  const nginx = startChild('nginx', ['-c', conf, '-g', 'daemon off;'], { cwd: rulesDir });
  const client = makeClient(`https://127.0.0.1:${httpsPort}`, { ca });
  const get = async (url, headers = {}, method = 'GET') => {
    const c = Object.keys(headers).length
      ? makeClient(`https://127.0.0.1:${httpsPort}`, { ca, headers })
      : client;
    const before = seen.length;
    const r = await c.call(method, url, method === 'GET' ? undefined : {});
    if (c !== client) c.close();
    return {
      status: r.status,
      cache: r.headers['x-cache-status'] ?? 'none',
      upstream: seen.length - before,
      text: r.text,
      sharedKey: r.headers['x-shared-key'],
    };
  };
  try {
    for (let i = 0; i < 50 && (await get('/api/user/health')).status !== 200; i++) await sleep(100);
    /** `first` then `second`: the second's X-Cache-Status and whether it reached the stub. */
    const pair = async (first, second, headers = {}) => {
      const a = await get(first, headers);
      const b = await get(second, headers);
      return { a, b };
    };
    const expectPair = async (what, first, second, want, headers) => {
      const { a, b } = await pair(first, second, headers);
      const ok =
        a.status === 200 && b.status === 200 && b.cache === want && (want === 'HIT') === (b.upstream === 0);
      check(
        ok,
        `cache rules: ${what} (${first} → ${a.cache}, ${second} → ${b.cache}, upstream ${b.upstream})`,
      );
      return { a, b };
    };
    const { b: hit } = await expectPair(
      'a landing with other click ids is the same copy',
      '/?adChannelCode=s1&clickid=1',
      '/?clickid=2&callback=x&adChannelCode=s1&utm_source=y',
      'HIT',
    );
    check(hit.sharedKey === undefined, 'cache rules: X-Shared-Key is not shown to visitors');
    await expectPair(
      'trailing slashes aside',
      '/download/?adChannelCode=s2',
      '/download?adChannelCode=s2&clickid=9',
      'HIT',
    );
    await expectPair(
      'the first non-empty of the channel keys',
      '/login?source=s3',
      '/login?adChannelCode=&source=s3&clickid=3',
      'HIT',
    );
    await expectPair(
      'a route code is part of the key',
      '/h5?adRouteCode=r1&clickid=1',
      '/h5/?clickid=2&adRouteCode=r1',
      'HIT',
    );
    await expectPair(
      'another route code is another copy',
      '/h5?adRouteCode=r1',
      '/h5?adRouteCode=r2',
      'MISS',
    );
    await expectPair(
      'another path is another copy',
      '/getQuota?adChannelCode=s5',
      '/?adChannelCode=s5',
      'MISS',
    );
    await expectPair(
      'a page under another key than the server names is not stored',
      '/?adChannelCode=other',
      '/?adChannelCode=other&clickid=2',
      'MISS',
    );
    await expectPair(
      'an A/B channel (no-cache) is not stored',
      '/?adChannelCode=ab1',
      '/?adChannelCode=ab1&clickid=2',
      'MISS',
    );
    await expectPair(
      'an answer with Set-Cookie is not stored',
      '/?adChannelCode=cookie',
      '/?adChannelCode=cookie',
      'MISS',
    );
    await expectPair(
      'a differently cased key is not a code',
      '/?ADCHANNELCODE=s1',
      '/?ADCHANNELCODE=s1',
      'BYPASS',
    );
    await expectPair(
      'a link with a phone is never looked up',
      '/?adChannelCode=s1&phone=13800138000',
      '/?adChannelCode=s1&phone=13800138000',
      'BYPASS',
    );
    await expectPair('a link with no code is never looked up', '/?clickid=1', '/?clickid=1', 'BYPASS');
    await expectPair(
      'a session token bypasses the cache',
      '/?adChannelCode=s1',
      '/?adChannelCode=s1',
      'BYPASS',
      { accesstoken: 't' },
    );
    await expectPair('a cookie bypasses the cache', '/?adChannelCode=s1', '/?adChannelCode=s1', 'BYPASS', {
      cookie: 'x=1',
    });
    await expectPair(
      'h5Config as the H5 asks',
      '/api/adChannel/h5Config?adChannelCode=s1',
      '/api/adChannel/h5Config?adChannelCode=s1',
      'HIT',
    );
    await expectPair(
      'h5Config of an A/B channel (private) is not stored',
      '/api/adChannel/h5Config?adChannelCode=ab1',
      '/api/adChannel/h5Config?adChannelCode=ab1',
      'MISS',
    );
    await expectPair(
      'h5Config with another query (the preview) is never looked up',
      '/api/adChannel/h5Config?adChannelCode=s1&previewToken=x',
      '/api/adChannel/h5Config?adChannelCode=s1&previewToken=x',
      'BYPASS',
    );
    await expectPair(
      'h5Config with a session token',
      '/api/adChannel/h5Config?adChannelCode=s1',
      '/api/adChannel/h5Config?adChannelCode=s1',
      'BYPASS',
      { accesstoken: 't' },
    );
    await expectPair(
      'another API answer is never cached',
      '/api/getAdChannel?adChannelCode=s1',
      '/api/getAdChannel?adChannelCode=s1',
      'none',
    );
    const post = await get('/api/adChannel/h5Config?adChannelCode=s1', {}, 'POST');
    check(
      post.upstream === 1 && post.cache !== 'HIT',
      `cache rules: a POST is never answered from the cache (${post.cache})`,
    );
  } finally {
    client.close();
    nginx.child.kill('SIGQUIT');
    await Promise.race([nginx.exited, sleep(5000)]);
    if (!nginx.hasExited()) nginx.child.kill('SIGKILL');
    server.close();
  }
}
