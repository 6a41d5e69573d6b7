import { randomBytes } from 'node:crypto';
import { idCardCheckChar } from '@lm/shared/validators/id-card';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditProfiles, faceChecks } from '../src/db/schema.ts';
import { decryptField, encryptField } from '../src/lib/crypto.ts';
import {
  FACE_CHECKS_PER_USER_PER_HOUR,
  OCR_READS_PER_USER_PER_HOUR,
} from '../src/modules/verification/routes.ts';
import { BACKEND, body, createTestApp, loginAs, type TestContext } from './helpers.ts';
import { blank, drawnSelfie, idCardFront, landscape } from './specimens.ts';
import { uploadAs } from './upload-helper.ts';

/**
 * ID-card OCR and face verification through the API, on pictures drawn by the tests and uploaded
 * through the real upload policy and the local store. The OCR and the face detector are the real
 * offline engines (tesseract.js chi_sim, SSD MobileNet v1 on TensorFlow.js wasm).
 */
const OCR_URL = '/api/app/userInfo/getOcrResultByIDCardPic';
const FACE_URLS = ['/api/app/userInfo/faceVerify', '/api/user/info/faceVerify'] as const;
const withCheck = (first17: string) => `${first17}${idCardCheckChar(first17)}`;
const WHO = { realName: '王小明', identity: '11010519491231002X' };

let ctx: TestContext;
const logLines: string[] = [];
beforeAll(async () => {
  ctx = await createTestApp({
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => void logLines.push(line) },
  });
});
afterAll(async () => ctx?.close());

const upload = uploadAs;

const post = (app: FastifyInstance, url: string, payload: unknown, token?: string) =>
  app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { accesstoken: token } : {},
  });

interface OcrAnswer {
  realName: string | null;
  identity: string | null;
  valid: boolean;
  method: string;
  note: string;
}

interface FaceAnswer {
  auditStatus: number;
  passed: boolean;
  identityVerified: boolean | null;
  method: string;
  reasons: string[];
  note: string;
}

describe(`POST ${OCR_URL} (${BACKEND})`, () => {
  it('requires login, before validation', async () => {
    for (const token of [undefined, 'forged-token']) {
      for (const payload of [{ image: 'private/idcard/x.png' }, { nope: 1 }]) {
        const res = await post(ctx.app, OCR_URL, payload, token);
        expect(res.statusCode).toBe(401);
        expect(body(res).code).toBe(401);
      }
    }
  });

  it('reads the name and number of a specimen card (PNG, by URL), with the checksum verdict', async () => {
    const { token } = await loginAs(ctx.app);
    const idNumber = withCheck('11010119900307451');
    const card = idCardFront({ name: '王小明', idNumber });
    const { url } = await upload(ctx.app, token, 'idcard', card, 'image/png');
    const started = performance.now();
    const res = await post(ctx.app, OCR_URL, { image: url }, token);
    const ms = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    const a = body<OcrAnswer>(res).data;
    expect(a).toMatchObject({ realName: '王小明', identity: idNumber, valid: true, method: 'local-ocr' });
    expect(a.note).toMatch(/请逐字核对/);
    console.info(`local OCR, first call (engine start included): ${Math.round(ms)} ms`);
  });

  it('reads a JPEG card by object key, a number ending in X, and the CRM ID-card folder', async () => {
    const { token } = await loginAs(ctx.app);
    const idNumber = '11010519491231002X';
    expect(idCardCheckChar(idNumber.slice(0, 17))).toBe('X');
    const card = idCardFront({ name: '李四', idNumber }, 'jpeg');
    const { key } = await upload(ctx.app, token, 'idcard', card, 'image/jpeg');
    const started = performance.now();
    const a = body<OcrAnswer>(await post(ctx.app, OCR_URL, { image: key }, token)).data;
    console.info(`local OCR, warm: ${Math.round(performance.now() - started)} ms`);
    expect(a).toMatchObject({ realName: '李四', identity: idNumber, valid: true });

    const other = withCheck('44030519851231002');
    const crm = await upload(
      ctx.app,
      token,
      'crm-idcard',
      idCardFront({ name: '张伟', idNumber: other }),
      'image/png',
    );
    const b = body<OcrAnswer>(await post(ctx.app, OCR_URL, { image: crm.url }, token)).data;
    expect(b).toMatchObject({ realName: '张伟', identity: other, valid: true });
  });

  it("writes its lines with the request's id (issue 19.1), never the name or number read", async () => {
    const { token } = await loginAs(ctx.app);
    const idNumber = withCheck('11010519900307123');
    const { key } = await upload(
      ctx.app,
      token,
      'idcard',
      idCardFront({ name: '赵六', idNumber }),
      'image/png',
    );
    const res = await post(ctx.app, OCR_URL, { image: key }, token);
    expect(res.statusCode, res.body).toBe(200);
    const requestId = res.headers['x-request-id'];
    expect(requestId).toBeTruthy();
    const read = logLines
      .map((l) => JSON.parse(l) as { msg?: string; reqId?: string })
      .filter((l) => l.msg === 'ID card read' && l.reqId === requestId);
    expect(read).toHaveLength(1);
    const line = logLines.find((l) => l.includes(String(requestId)) && l.includes('ID card read'))!;
    expect(line).not.toContain(idNumber);
    expect(line).not.toContain('赵六');
  });

  it('says valid: false when the number read fails the checksum', async () => {
    const { token } = await loginAs(ctx.app);
    const good = withCheck('32010220000101123');
    const bad = `${good.slice(0, 17)}${good[17] === '1' ? '2' : '1'}`;
    const { url } = await upload(
      ctx.app,
      token,
      'idcard',
      idCardFront({ name: '赵敏', idNumber: bad }),
      'image/png',
    );
    const a = body<OcrAnswer>(await post(ctx.app, OCR_URL, { image: url }, token)).data;
    expect(a.identity).toBe(bad);
    expect(a.valid).toBe(false);
    expect(a.note).toMatch(/未通过校验.*校验位不正确/);
  });

  it('a picture without a card answers nulls and asks for a clear photo', async () => {
    const { token } = await loginAs(ctx.app);
    const { url } = await upload(ctx.app, token, 'idcard', landscape(), 'image/jpeg');
    const a = body<OcrAnswer>(await post(ctx.app, OCR_URL, { image: url }, token)).data;
    expect(a).toMatchObject({ realName: null, identity: null, valid: false });
    expect(a.note).toMatch(/未能识别/);
  });

  it('bytes that only start like a JPEG answer 400', async () => {
    const { token } = await loginAs(ctx.app);
    const junk = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2000)]);
    const { url } = await upload(ctx.app, token, 'idcard', junk, 'image/jpeg');
    const res = await post(ctx.app, OCR_URL, { image: url }, token);
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toMatch(/图片无法识别/);
  });

  it('refuses, with the same 404, anything but the caller’s own private ID-card upload', async () => {
    const alice = await loginAs(ctx.app);
    const bob = await loginAs(ctx.app);
    const card = idCardFront({ name: '王小明', idNumber: withCheck('11010119900307451') });
    const bobs = await upload(ctx.app, bob.token, 'idcard', card, 'image/png');
    const aliceFace = await upload(ctx.app, alice.token, 'face', card, 'image/png');
    const aliceAvatar = await upload(ctx.app, alice.token, 'avatar', card, 'image/png', {
      isPrivate: 'false',
    });
    const aliceCard = await upload(ctx.app, alice.token, 'idcard', card, 'image/png');
    const cases = [
      bobs.url, // someone else's
      bobs.key,
      aliceFace.url, // own, but the face folder
      aliceAvatar.url, // own, but public (avatar)
      `${aliceCard.key.slice(0, aliceCard.key.lastIndexOf('/') + 1)}missing.png`, // own dir, no such file
      aliceCard.key.replace(/\/u\d+-/, `/u${bob.uid}-`), // forged owner in the key
      `https://evil.example.com/${aliceCard.key}`, // a foreign host
      '../../etc/passwd',
      'private/idcard/20250101/u1-000000000000/x.png',
    ];
    for (const image of cases) {
      const res = await post(ctx.app, OCR_URL, { image }, alice.token);
      expect(res.statusCode, image).toBe(404);
      expect(body(res).msg).toBe('图片不存在，请重新上传');
    }
    expect((await post(ctx.app, OCR_URL, { image: aliceCard.url }, alice.token)).statusCode).toBe(200);
  });

  it('validates the body', async () => {
    const { token } = await loginAs(ctx.app);
    for (const payload of [{}, { image: '' }, { image: 5 }, { image: 'x'.repeat(1025) }]) {
      const res = await post(ctx.app, OCR_URL, payload, token);
      expect(res.statusCode).toBe(400);
    }
  });

  it(`allows ${OCR_READS_PER_USER_PER_HOUR} readings an hour per person, then 429`, async () => {
    const { token, uid } = await loginAs(ctx.app);
    for (let i = 0; i < OCR_READS_PER_USER_PER_HOUR; i++) {
      await ctx.app.services.limiter.consume(`ocr:user:${uid}`, OCR_READS_PER_USER_PER_HOUR, {
        ms: 3600_000,
      });
    }
    const res = await post(ctx.app, OCR_URL, { image: 'private/idcard/x.png' }, token);
    expect(res.statusCode).toBe(429);
    expect(body<{ retryAfter: number }>(res).data.retryAfter).toBeGreaterThan(0);
    // another person is not affected
    const other = await loginAs(ctx.app);
    expect((await post(ctx.app, OCR_URL, { image: 'private/idcard/x.png' }, other.token)).statusCode).toBe(
      404,
    );
  });
});

describe(`POST ${FACE_URLS.join(' and ')} (${BACKEND})`, () => {
  async function faceOf(token: string, picture: Buffer | Promise<Buffer>, url: string = FACE_URLS[0]) {
    const up = await upload(ctx.app, token, 'face', await picture, 'image/jpeg');
    // The name and number confirmed at the identity step (without them nothing passes, issue 16.1).
    const res = await post(ctx.app, url, { image: up.url, ...WHO }, token);
    expect(res.statusCode, res.body).toBe(200);
    return { ...body<FaceAnswer>(res).data, key: up.key };
  }

  async function statusOf(uid: number) {
    const [row] = await ctx.app.database.db
      .select()
      .from(creditProfiles)
      .where(eq(creditProfiles.userId, uid))
      .limit(1);
    return row;
  }

  it('requires login, before validation', async () => {
    for (const url of FACE_URLS) {
      const res = await post(ctx.app, url, { nope: 1 });
      expect(res.statusCode).toBe(401);
    }
  });

  it('a blank picture fails (status 1), the attempt is recorded and a credit profile row is created', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const a = await faceOf(token, blank());
    expect(a).toMatchObject({
      auditStatus: 1,
      passed: false,
      identityVerified: null,
      method: 'local-detection',
    });
    expect(a.reasons).toEqual(['照片为纯色或空白，请对准面部重新拍摄']);
    const row = await statusOf(uid);
    expect(row?.auditStatus).toBe(1);
    expect(decryptField(ctx.app.services.keys.ring, row!.dataEnc)).toBe('{}');
    const checks = await ctx.app.database.db.select().from(faceChecks).where(eq(faceChecks.userId, uid));
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ fileKey: a.key, status: 1, provider: 'local', identityVerified: null });
    expect(checks[0]!.details).toMatchObject({ method: 'local-detection', reasons: ['blank'], grayStdev: 0 });
  });

  it('a photo-like picture without a face fails: no face', async () => {
    const { token } = await loginAs(ctx.app);
    const a = await faceOf(token, landscape());
    expect(a.passed).toBe(false);
    expect(a.reasons).toEqual(['未检测到人脸，请正对镜头重新拍摄']);
  });

  it('a picture with one clear face passes (status 2) on both paths, identity not verified', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const started = performance.now();
    const a = await faceOf(token, drawnSelfie());
    console.info(`local face check (upload included): ${Math.round(performance.now() - started)} ms`);
    expect(a).toMatchObject({
      auditStatus: 2,
      passed: true,
      identityVerified: null,
      method: 'local-detection',
      reasons: [],
    });
    expect(a.note).toMatch(/未与身份证照片.*比对，身份未核验/);
    expect((await statusOf(uid))?.auditStatus).toBe(2);
    const [check] = await ctx.app.database.db.select().from(faceChecks).where(eq(faceChecks.userId, uid));
    expect(check!.details).toMatchObject({ faces: 1 });
    expect(check!.details.sharpness as number).toBeGreaterThan(25);
    expect(check!.details.faceWidthRatio as number).toBeGreaterThanOrEqual(0.2);

    const b = await faceOf(token, drawnSelfie(), FACE_URLS[1]);
    expect(b).toMatchObject({ auditStatus: 2, passed: true });
    // the latest attempt decides
    const c = await faceOf(token, blank());
    expect(c.auditStatus).toBe(1);
    expect((await statusOf(uid))?.auditStatus).toBe(1);
  });

  it('two faces, a small face, a blurred face each fail with their reason', async () => {
    const { token } = await loginAs(ctx.app);
    const two = await faceOf(token, drawnSelfie({ faces: 2, width: 800, height: 600, scale: 0.3 }));
    expect(two.reasons).toEqual(['检测到多张人脸，请确保仅本人入镜']);
    const small = await faceOf(token, drawnSelfie({ scale: 0.12 }));
    expect(small.reasons).toEqual(['人脸过小，请靠近镜头重新拍摄']);
    const blurred = await faceOf(
      token,
      sharp(await drawnSelfie())
        .blur(5)
        .jpeg()
        .toBuffer(),
    );
    expect(blurred.reasons).toEqual(['照片模糊，请保持稳定后重新拍摄']);
    const tiny = await faceOf(
      token,
      sharp(await drawnSelfie())
        .resize(120)
        .jpeg()
        .toBuffer(),
    );
    expect(tiny.reasons).toEqual(['照片分辨率过低，请重新拍摄']);
  });

  it('only touches auditStatus and updatedAt of an existing credit profile', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const ring = ctx.app.services.keys.ring;
    const info = JSON.stringify({ education: 3, companyName: '某公司' });
    const past = new Date(Date.now() - 3600_000);
    await ctx.app.database.db.insert(creditProfiles).values({
      userId: uid,
      dataEnc: encryptField(ring, info),
      auditStatus: 0,
      updatedAt: past,
      createdAt: past,
    });
    await faceOf(token, blank());
    const row = await statusOf(uid);
    expect(row?.auditStatus).toBe(1);
    expect(decryptField(ring, row!.dataEnc)).toBe(info);
    expect(row!.createdAt.getTime()).toBe(past.getTime());
    expect(row!.updatedAt.getTime()).toBeGreaterThan(past.getTime());
  });

  it('refuses an ID-card upload, someone else’s selfie and a foreign URL with 404, recording nothing', async () => {
    const alice = await loginAs(ctx.app);
    const bob = await loginAs(ctx.app);
    const selfie = await drawnSelfie();
    const bobs = await upload(ctx.app, bob.token, 'face', selfie, 'image/jpeg');
    const card = await upload(ctx.app, alice.token, 'idcard', selfie, 'image/jpeg');
    for (const image of [bobs.url, card.url, `https://evil.example.com/${bobs.key}`]) {
      const res = await post(ctx.app, FACE_URLS[0], { image }, alice.token);
      expect(res.statusCode, image).toBe(404);
    }
    const checks = await ctx.app.database.db
      .select()
      .from(faceChecks)
      .where(eq(faceChecks.userId, alice.uid));
    expect(checks).toHaveLength(0);
    expect(await statusOf(alice.uid)).toBeUndefined();
  });

  it('validates the optional name and number (both or neither, checksum)', async () => {
    const { token } = await loginAs(ctx.app);
    const cases = [
      { image: 'x', realName: '王小明' },
      { image: 'x', realName: '王小明', identity: '110101199003074515' },
      { image: 'x', realName: 'Wang', identity: withCheck('11010119900307451') },
    ];
    for (const payload of cases) {
      const res = await post(ctx.app, FACE_URLS[0], payload, token);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it(`allows ${FACE_CHECKS_PER_USER_PER_HOUR} checks an hour per person, then 429`, async () => {
    const { token, uid } = await loginAs(ctx.app);
    for (let i = 0; i < FACE_CHECKS_PER_USER_PER_HOUR; i++) {
      await ctx.app.services.limiter.consume(`face:user:${uid}`, FACE_CHECKS_PER_USER_PER_HOUR, {
        ms: 3600_000,
      });
    }
    for (const url of FACE_URLS) {
      expect((await post(ctx.app, url, { image: 'private/face/x.jpg' }, token)).statusCode).toBe(429);
    }
  });
});
