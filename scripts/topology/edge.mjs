// The edge checks of the topology test, before any load: statics pre-compressed from disk, X-Request-Id,
// underscore headers, a forged X-Forwarded-For, the SMS connection limit.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeClient, newCtx } from '../../bench/journey-steps.mjs';
import { sleep } from '../../bench/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What the edge does before any load: statics pre-compressed from disk, X-Request-Id, underscore
 * headers, a forged X-Forwarded-For, the SMS connection limit.
 */
export async function checkEdge(base, ca, dir, { check, ipCap, deviceCap }) {
  // Hashed build files: straight from disk (no upstream), brotli or gzip as the browser asks.
  const index = readFileSync(path.join(ROOT, 'apps/web/dist/index.html'), 'utf8');
  const found = /assets\/[^"']+\.js/.exec(index)?.[0];
  const asset = found && `/${found}`;
  check(Boolean(asset), `the built index.html names a script (${asset})`);
  for (const [enc, want] of [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
  ]) {
    const c = makeClient(base, { ca, headers: { 'accept-encoding': enc } });
    const r = await c.call('GET', asset);
    c.close();
    check(
      r.status === 200 &&
        r.headers['content-encoding'] === want &&
        /immutable/.test(r.headers['cache-control'] ?? '') &&
        !r.headers['x-upstream'],
      `${asset} with Accept-Encoding "${enc}": ${r.status}, ${r.headers['content-encoding']}, from disk (${r.headers['x-upstream'] ?? 'no upstream'})`,
    );
  }
  const adminIndex = readFileSync(path.join(ROOT, 'apps/admin/dist/index.html'), 'utf8');
  const adminFound = /assets\/[^"']+\.js/.exec(adminIndex)?.[0];
  const adminAsset = adminFound && `/admin/${adminFound}`;
  {
    const c = makeClient(base, { ca, headers: { 'accept-encoding': 'br' } });
    const r = await c.call('GET', adminAsset);
    c.close();
    check(
      r.status === 200 && r.headers['content-encoding'] === 'br' && !r.headers['x-upstream'],
      `${adminAsset}: ${r.status}, ${r.headers['content-encoding']}, from disk`,
    );
  }

  // X-Request-Id: nginx's id reaches the instance (which answers it) and nginx's log.
  {
    const c = makeClient(base, { ca });
    const r = await c.call('GET', '/api/user/health');
    c.close();
    const rid = r.headers['x-request-id'] ?? '';
    await sleep(300);
    const accessLog = readFileSync(path.join(dir, 'access.log'), 'utf8');
    check(
      /^[0-9a-f]{32}$/.test(rid) && accessLog.includes(`rid=${rid}`),
      `X-Request-Id ${rid} in the answer and nginx's log`,
    );
  }

  // A visitor forging X-Forwarded-For is still counted on its own address: the IP cap bites.
  {
    const codes = [];
    let lastMsg = '';
    for (let i = 0; i <= ipCap; i++) {
      const c = makeClient(base, {
        ca,
        localAddress: '127.0.9.2',
        headers: { 'x-forwarded-for': `10.${i}.${randomBytes(1)[0]}.${randomBytes(1)[0]}` },
      });
      const r = await c.call('POST', '/api/login/sendPhoneVerifyCode', { phone: newCtx().phone });
      c.close();
      codes.push(r.status);
      lastMsg = r.json?.msg ?? '';
    }
    check(
      codes.slice(0, ipCap).every((s) => s === 200) &&
        codes[ipCap] === 429 &&
        lastMsg.includes('当前网络获取验证码过于频繁'),
      `forged X-Forwarded-For: sends ${ipCap} answered, the next refused by the per-address cap (${codes.join(',')}: ${lastMsg})`,
    );
  }

  // platform_param (an underscore header) reaches the API: the per-device cap counts it.
  {
    const fingerprint = randomBytes(8).toString('hex');
    const codes = [];
    let lastMsg = '';
    for (let i = 0; i <= deviceCap; i++) {
      const c = makeClient(base, {
        ca,
        localAddress: `127.0.9.${10 + i}`,
        headers: { platform_param: JSON.stringify({ fingerprint }) },
      });
      const r = await c.call('POST', '/api/login/sendPhoneVerifyCode', { phone: newCtx().phone });
      c.close();
      codes.push(r.status);
      lastMsg = r.json?.msg ?? '';
    }
    check(
      codes.slice(0, deviceCap).every((s) => s === 200) &&
        codes[deviceCap] === 429 &&
        lastMsg.includes('当前设备'),
      `platform_param passes nginx: the device cap refuses send ${deviceCap + 1} (${codes.join(',')}: ${lastMsg})`,
    );
  }

  // The SMS connection limit: many sends at once from one address; nginx refuses some with the envelope.
  {
    const n = 16;
    const clients = Array.from({ length: n }, () => makeClient(base, { ca, localAddress: '127.0.9.50' }));
    const rs = await Promise.all(
      clients.map((c) => c.call('POST', '/api/login/sendPhoneVerifyCode', { phone: newCtx().phone })),
    );
    for (const c of clients) c.close();
    const byNginx = rs.filter((r) => r.status === 429 && !r.headers['x-upstream']);
    const other = rs.filter((r) => r.status !== 200 && !(r.status === 429));
    check(
      byNginx.length > 0 && other.length === 0 && byNginx.every((r) => r.json?.code === 429 && r.json?.msg),
      `${n} sends at once from one address: ${rs.filter((r) => r.status === 200).length} answered, ${byNginx.length} refused by nginx's connection limit with the envelope`,
    );
  }
}
