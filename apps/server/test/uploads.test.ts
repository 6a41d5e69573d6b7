import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UPLOAD_MAX_BYTES } from '@lm/shared/upload';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, uploadedFiles } from '../src/db/schema.ts';
import { readUserUpload } from '../src/providers/storage/index.ts';
import type { LocalStorageProvider } from '../src/providers/storage/local.ts';
import { uploadDir } from '../src/providers/storage/policy.ts';
import type { UploadPolicy } from '../src/providers/storage/types.ts';
import { BACKEND, body, createTestApp, loginAs, newIp, newPhone, type TestContext } from './helpers.ts';
import { staffLogin as roleLogin } from './security/fixtures.ts';

const POLICY_URL = '/api/common/upload/policy';
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0 test jpeg'),
]);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(32, 1)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');

let ctx: TestContext;
let app: FastifyInstance;
let alice: { token: string; uid: number };
let bob: { token: string; uid: number };
let staffToken: string;
let staffId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  app = ctx.app;
  alice = await loginAs(app);
  bob = await loginAs(app);
  const phone = newPhone();
  const password = 'a long staff secret';
  staffId = (await app.services.staff.create({ phone, name: '审核员', role: 'viewer', password })).id;
  const res = await app.inject({
    method: 'POST',
    url: '/api/crm/admin/login',
    payload: { phone, password },
    remoteAddress: newIp(),
  });
  staffToken = body<{ token: string }>(res).data.token;
});
afterAll(async () => ctx?.close());

async function getPolicy(token: string | undefined, query: string) {
  return app.inject({
    url: `${POLICY_URL}?${query}`,
    headers: token ? { accesstoken: token } : {},
  });
}

async function policyFor(token: string, query = 'image=idcard'): Promise<UploadPolicy> {
  const res = await getPolicy(token, query);
  expect(res.statusCode, res.body).toBe(200);
  return body<UploadPolicy>(res).data;
}

/** A real multipart body (fields in order, file last), as the H5 and OSS forms send it. */
async function multipart(fields: [string, string | Blob, string?][]) {
  const form = new FormData();
  for (const [name, value, filename] of fields) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename);
  }
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { 'content-type': req.headers.get('content-type')! },
  };
}

interface UploadOptions {
  name?: string;
  key?: string;
  file?: Buffer;
  /** The form's Content-Type field (null: none, the file part's type is used). */
  type?: string | null;
  fileType?: string;
  signature?: string;
  accessKeyId?: string;
}

async function upload(policy: UploadPolicy, o: UploadOptions = {}) {
  const key = o.key ?? `${policy.dir}${o.name ?? 'Ab3dE91763805600000card.jpg'}`;
  const fields: [string, string | Blob, string?][] = [
    ['key', key],
    ['policy', policy.policy],
    ['OSSAccessKeyId', o.accessKeyId ?? policy.accessKeyId],
    ['success_action_status', '200'],
    ['signature', o.signature ?? policy.signature],
  ];
  if (o.type !== null) fields.push(['Content-Type', o.type ?? 'image/jpeg']);
  fields.push(['file', new Blob([o.file ?? JPEG], { type: o.fileType ?? 'image/jpeg' }), 'card.jpg']);
  const { payload, headers } = await multipart(fields);
  expect(policy.host).toBe('/api/storage');
  const res = await app.inject({
    method: 'POST',
    url: policy.host,
    payload,
    headers,
    remoteAddress: newIp(),
  });
  return { res, key, url: `${policy.host}/${key}` };
}

const read = (url: string, token?: string) =>
  app.inject({ url: encodeURI(url), headers: token ? { accesstoken: token } : {} });

describe(`GET ${POLICY_URL} (${BACKEND})`, () => {
  it('requires login, before validation', async () => {
    for (const token of [undefined, 'forged-token']) {
      for (const query of ['image=idcard', 'image=nope']) {
        const res = await getPolicy(token, query);
        expect(res.statusCode).toBe(401);
        expect(body(res).code).toBe(401);
      }
    }
  });

  it('answers an OSS v1 policy: 10 MB, dir of the person, images only, 10 minutes', async () => {
    const p = await policyFor(alice.token, 'image=idcard&isPrivate=false');
    expect(Object.keys(p).sort()).toEqual(['accessKeyId', 'dir', 'expire', 'host', 'policy', 'signature']);
    expect(p.accessKeyId).toBe('local');
    expect(p.dir).toMatch(new RegExp(`^private/idcard/\\d{8}/u${alice.uid}-[0-9a-f]{12}/$`));
    expect(p.expire - Date.now() / 1000).toBeGreaterThan(590);
    const doc = JSON.parse(Buffer.from(p.policy, 'base64').toString('utf8'));
    expect(doc.conditions).toEqual([
      ['content-length-range', 1, 10485760],
      ['starts-with', '$key', p.dir],
      ['in', '$content-type', ['image/jpeg', 'image/png', 'image/webp']],
    ]);
    expect(Date.parse(doc.expiration)).toBe(p.expire * 1000);
    // A fresh dir each time.
    expect((await policyFor(alice.token, 'image=idcard')).dir).not.toBe(p.dir);
  });

  it('private folders stay private whatever isPrivate says; public ones follow it', async () => {
    for (const folder of ['idcard', 'face', 'crm-idcard', 'feedback']) {
      expect((await policyFor(alice.token, `image=${folder}&isPrivate=false`)).dir).toMatch(
        new RegExp(`^private/${folder}/`),
      );
    }
    expect((await policyFor(alice.token, 'image=avatar')).dir).toMatch(/^public\/avatar\//);
    expect((await policyFor(alice.token, 'image=avatar&isPrivate=true')).dir).toMatch(/^private\/avatar\//);
  });

  it('refuses an unknown folder with a Chinese message', async () => {
    const res = await getPolicy(alice.token, 'image=..%2Fetc');
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('不支持的上传目录');
    const missing = await getPolicy(alice.token, 'isPrivate=true');
    expect(body(missing).msg).toContain('请指定上传目录');
  });

  it('staff tokens get the CRM ID-card folder only, in a staff dir', async () => {
    const p = await policyFor(staffToken, 'image=crm-idcard');
    expect(p.dir).toMatch(new RegExp(`^private/crm-idcard/\\d{8}/s${staffId}-[0-9a-f]{12}/$`));
    const refused = await getPolicy(staffToken, 'image=idcard');
    expect(refused.statusCode).toBe(403);
    expect(body(refused).msg).toBe('该上传目录不对后台账号开放');
  });
});

describe(`local store: POST /api/storage (${BACKEND})`, () => {
  it('stores a good upload, records it, and serves it to its owner only (404 to others)', async () => {
    const p = await policyFor(alice.token);
    const { res, key, url } = await upload(p, { name: 'Xy12Zq1763805600000身份证正面.jpg' });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res)).toMatchObject({
      code: 200,
      data: { key, url, size: JPEG.length, contentType: 'image/jpeg' },
    });

    const [row] = await app.database.db.select().from(uploadedFiles).where(eq(uploadedFiles.key, key));
    expect(row).toMatchObject({
      folder: 'idcard',
      isPrivate: true,
      ownerUserId: alice.uid,
      ownerStaffId: null,
      contentType: 'image/jpeg',
      sizeBytes: JPEG.length,
    });
    expect(row!.sha256).toMatch(/^[0-9a-f]{64}$/);

    const own = await read(url, alice.token);
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(JPEG)).toBe(true);
    expect(own.headers['content-type']).toBe('image/jpeg');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.headers['cache-control']).toMatch(/^private/);

    for (const token of [undefined, bob.token, 'forged-token']) {
      const other = await read(url, token);
      expect(other.statusCode).toBe(404);
      expect(body(other)).toMatchObject({ code: 404, msg: '文件不存在' });
    }

    // Server side, as the OCR / face modules read it.
    const { storage } = app.services;
    expect(storage.keyFromUrl(url)).toBe(key);
    expect(storage.keyFromUrl(`https://elsewhere.example.com${url}`)).toBeNull();
    expect((await storage.getObject(key))?.body.equals(JPEG)).toBe(true);
    expect((await readUserUpload(storage, url, alice.uid, ['idcard']))?.parsed.folder).toBe('idcard');
    expect(await readUserUpload(storage, url, bob.uid)).toBeNull();
    expect(await readUserUpload(storage, url, alice.uid, ['face'])).toBeNull();
  });

  it("private uploads: admin and operator read them, each read audit-logged like a reveal; viewer and channel partner get the stranger's 404", async () => {
    const p = await policyFor(alice.token);
    const { res, key, url } = await upload(p, { name: 'Zx98Yw1763805600000张三身份证.jpg' });
    expect(res.statusCode, res.body).toBe(200);
    const stranger = body(await read(url, bob.token));
    const reveals = () =>
      app.database.db
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.action, 'reveal'),
            eq(auditLog.entity, 'user'),
            eq(auditLog.entityId, String(alice.uid)),
          ),
        )
        .orderBy(auditLog.id);

    for (const role of ['viewer', 'channel_partner'] as const) {
      const { token } = await roleLogin(app, role);
      const refused = await read(url, token);
      expect(refused.statusCode, role).toBe(404);
      expect(body(refused), role).toEqual(stranger);
    }
    expect(await reveals()).toEqual([]);

    const readers: { role: string; id: number }[] = [];
    for (const role of ['admin', 'operator'] as const) {
      const { token, id } = await roleLogin(app, role);
      const ok = await read(url, token);
      expect(ok.statusCode, role).toBe(200);
      expect(ok.rawPayload.equals(JPEG), role).toBe(true);
      expect(ok.headers['cache-control'], role).toMatch(/^private, no-store/);
      readers.push({ role, id });
    }
    // A missing object is no read: nothing logged.
    expect(
      (await read(url.replace('.jpg', '-none.jpg'), (await roleLogin(app, 'admin')).token)).statusCode,
    ).toBe(404);

    const entries = await reveals();
    expect(entries.map((e) => e.staffId)).toEqual(readers.map((r) => r.id));
    const dir = key.slice(0, key.lastIndexOf('/') + 1);
    for (const e of entries) {
      expect(e).toMatchObject({
        entity: 'user',
        entityId: String(alice.uid),
        after: { field: 'upload', folder: 'idcard', dir },
      });
    }
    // Who read whose file, never the file's name (which may name the person).
    expect(JSON.stringify(entries)).not.toContain('张三');
  });

  it('serves public folders to anyone, with the file part type when the form has no Content-Type', async () => {
    const p = await policyFor(alice.token, 'image=avatar');
    const { res, url } = await upload(p, {
      name: 'Qw12Er1763805600000me.png',
      file: PNG,
      type: null,
      fileType: 'image/png',
    });
    expect(res.statusCode, res.body).toBe(200);
    const anon = await read(url);
    expect(anon.statusCode).toBe(200);
    expect(anon.headers['content-type']).toBe('image/png');
    expect(anon.headers['cache-control']).toMatch(/^public/);
  });

  it('a staff upload to the CRM ID-card folder is owned by the staff member', async () => {
    const p = await policyFor(staffToken, 'image=crm-idcard');
    const { res, key, url } = await upload(p);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await app.database.db.select().from(uploadedFiles).where(eq(uploadedFiles.key, key));
    expect(row).toMatchObject({ ownerStaffId: staffId, ownerUserId: null, isPrivate: true });
    expect((await read(url, staffToken)).statusCode).toBe(200);
    expect((await read(url, alice.token)).statusCode).toBe(404);
  });

  it('refuses a wrong signature, another access key id and a policy of someone else', async () => {
    const p = await policyFor(alice.token);
    const flipped = `${p.signature[0] === 'A' ? 'B' : 'A'}${p.signature.slice(1)}`;
    for (const o of [{ signature: flipped }, { accessKeyId: 'LTAI5tSomeoneElse' }]) {
      const { res } = await upload(p, o);
      expect(res.statusCode).toBe(401);
      expect(body(res)).toEqual({ code: 1103, msg: '上传签名校验失败', data: null });
    }
    // Bob's signed policy with Alice's dir in the key: the key is outside Bob's dir.
    const bobs = await policyFor(bob.token);
    const { res } = await upload(bobs, { key: `${p.dir}stolen.jpg` });
    expect(res.statusCode).toBe(403);
    expect(body(res).msg).toBe('文件路径不在授权的上传目录内');
  });

  it('refuses an expired policy', async () => {
    const dir = uploadDir({
      visibility: 'private',
      folder: 'idcard',
      owner: { kind: 'user', id: alice.uid },
    });
    const expired = app.services.storage.createPolicy({
      dir,
      maxBytes: UPLOAD_MAX_BYTES,
      contentTypes: ['image/jpeg'],
      expiresInSeconds: -1,
    });
    const { res } = await upload(expired);
    expect(res.statusCode).toBe(403);
    expect(body(res)).toMatchObject({ code: 403, msg: '上传凭证已过期，请重新上传' });
  });

  it('refuses a file over 10 MB while it streams, and leaves nothing behind', async () => {
    const p = await policyFor(alice.token);
    const big = Buffer.concat([JPEG, Buffer.alloc(UPLOAD_MAX_BYTES + 1 - JPEG.length)]);
    const { res, url } = await upload(p, { file: big });
    expect(res.statusCode).toBe(413);
    expect(body(res)).toMatchObject({ code: 413, msg: '文件大小不能超过10MB' });
    expect((await read(url, alice.token)).statusCode).toBe(404);
    const store = app.services.storage as LocalStorageProvider;
    expect(await readdir(join(store.root, '.incoming'))).toEqual([]);

    // A declared body far over the limit is refused before it is read.
    const huge = await upload(p, { file: Buffer.concat([big, Buffer.alloc(128 * 1024)]) });
    expect(huge.res.statusCode).toBe(413);
    expect(body(huge.res).msg).toBe('文件大小不能超过10MB');

    // The policy's own range is enforced too.
    const small = app.services.storage.createPolicy({
      dir: uploadDir({ visibility: 'private', folder: 'idcard', owner: { kind: 'user', id: alice.uid } }),
      maxBytes: 100,
      contentTypes: ['image/jpeg'],
      expiresInSeconds: 60,
    });
    const over = await upload(small, { file: Buffer.concat([JPEG, Buffer.alloc(200)]) });
    expect(over.res.statusCode).toBe(413);
    const empty = await upload(p, { file: Buffer.alloc(0) });
    expect(body(empty.res).msg).toBe('文件不能为空');
  });

  it('refuses a key outside the dir or with ..', async () => {
    const p = await policyFor(alice.token);
    const outside = await upload(p, { key: 'private/idcard/20260101/u1-0123456789ab/x.jpg' });
    expect(outside.res.statusCode).toBe(403);
    expect(body(outside.res).msg).toBe('文件路径不在授权的上传目录内');
    for (const key of [`${p.dir}../../../../../../etc/x.jpg`, `${p.dir}${'L'.repeat(300)}.jpg`]) {
      const refused = await upload(p, { key });
      expect(refused.res.statusCode).toBe(403);
      expect(body(refused.res).msg).toBe('文件路径不合法');
    }
  });

  it('refuses a type outside the policy and bytes that do not match the declared image type', async () => {
    const p = await policyFor(alice.token);
    const html = await upload(p, { type: 'text/html', name: 'a.html' });
    expect(html.res.statusCode).toBe(415);
    expect(body(html.res).msg).toBe('仅支持上传 JPG、PNG、WebP 格式的图片');
    for (const [file, type] of [
      [SVG, 'image/jpeg'],
      [JPEG, 'image/png'],
      [PNG, 'image/webp'],
    ] as const) {
      const { res, url } = await upload(p, { file, type, name: `${type.slice(6)}-${file.length}.img` });
      expect(res.statusCode).toBe(415);
      expect(body(res).msg).toBe('文件内容与图片类型不符');
      expect((await read(url, alice.token)).statusCode).toBe(404);
    }
  });

  it('names a missing field, needs the file, and never overwrites an object', async () => {
    const p = await policyFor(alice.token);
    const { payload, headers } = await multipart([
      ['key', `${p.dir}a.jpg`],
      ['policy', p.policy],
      ['signature', p.signature],
      ['file', new Blob([JPEG], { type: 'image/jpeg' }), 'a.jpg'],
    ]);
    const missing = await app.inject({ method: 'POST', url: '/api/storage', payload, headers });
    expect(body(missing)).toMatchObject({ code: 400, msg: '上传表单缺少字段：OSSAccessKeyId' });

    const noFile = await multipart([['key', `${p.dir}a.jpg`]]);
    const res = await app.inject({ method: 'POST', url: '/api/storage', ...noFile });
    expect(body(res).msg).toContain('上传表单缺少文件');

    const json = await app.inject({ method: 'POST', url: '/api/storage', payload: { key: 'x' } });
    expect(json.statusCode).toBe(415);

    const first = await upload(p, { name: 'same.jpg' });
    expect(first.res.statusCode).toBe(200);
    const again = await upload(p, { name: 'same.jpg', file: Buffer.concat([JPEG, Buffer.from('other')]) });
    expect(body(again.res).msg).toBe('文件已存在，请重新上传');
    expect((await read(first.url, alice.token)).rawPayload.equals(JPEG)).toBe(true);
  });

  it('answers 404 for keys of another layout and unknown objects', async () => {
    for (const url of [
      '/api/storage/private/idcard/20260101/u1-0123456789ab/none.jpg',
      '/api/storage/public/avatar/20260101/u1-0123456789ab/none.jpg',
      '/api/storage/etc/passwd',
      '/api/storage/public/avatar/20260101/u1-0123456789ab/',
      `/api/storage/public/avatar/20260101/u1-0123456789ab/${'L'.repeat(300)}.jpg`,
    ]) {
      const res = await read(url, alice.token);
      expect(res.statusCode, url).toBe(404);
    }
  });
});
