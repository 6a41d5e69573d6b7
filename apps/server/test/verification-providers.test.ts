import { createHash } from 'node:crypto';
import { idCardCheckChar } from '@lm/shared/validators/id-card';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../src/config/env.ts';
import { creditProfiles, faceChecks } from '../src/db/schema.ts';
import { TencentFaceProvider } from '../src/providers/face/tencent.ts';
import { FaceCheckUnavailableError } from '../src/providers/face/types.ts';
import { TencentIdCardOcrProvider } from '../src/providers/ocr/tencent.ts';
import {
  TencentApiClient,
  tc3CanonicalRequest,
  tc3Date,
  tc3Headers,
  tc3StringToSign,
} from '../src/providers/tencent/client.ts';
import { BACKEND, body, createTestApp, loginAs, post, type TestContext, testConfig } from './helpers.ts';
import { drawnSelfie, idCardFront } from './specimens.ts';
import { uploadAs } from './upload-helper.ts';

/**
 * The Tencent Cloud adapters (IDCardOCR, 人脸核身 ImageRecognition) against a stand-in for the
 * service: what is sent, how answers and failures are mapped. Nothing here reaches Tencent; the
 * request and answer shapes come from Tencent's documentation and SDK definitions (unverified live).
 */
const withCheck = (first17: string) => `${first17}${idCardCheckChar(first17)}`;
const ID = withCheck('11010119900307451');
const silentLog = { warn: () => {}, info: () => {}, error: () => {} } as unknown as FastifyBaseLogger;

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A fetch that records requests and answers with `answer(sent)` (a JSON body, a status, or a throw). */
function fakeTencent(answer: (sent: Sent) => unknown | { status: number }) {
  const sent: Sent[] = [];
  const fn = vi.fn(async (url: string | URL, init?: RequestInit) => {
    const s: Sent = {
      url: String(url),
      headers: init?.headers as Record<string, string>,
      body: JSON.parse(String(init?.body)),
    };
    sent.push(s);
    const a = answer(s);
    if (a && typeof a === 'object' && 'status' in a)
      return new Response('nope', { status: (a as { status: number }).status });
    return new Response(JSON.stringify(a), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return { fetch: fn as unknown as typeof fetch, sent };
}

const client = (f: typeof fetch) =>
  new TencentApiClient({ secretId: 'AKIDtest', secretKey: 'test-secret', fetch: f, now: () => 1551113065 });

describe('TC3-HMAC-SHA256 signing', () => {
  // Tencent's published worked example ("Signature v3", CVM DescribeInstances): the canonical request
  // and string to sign are printed in full there; the key is masked, so the HMAC chain has no vector.
  const DOC_PAYLOAD = '{"Limit": 1, "Filters": [{"Values": ["unnamed"], "Name": "instance-name"}]}';

  it('reproduces the documented canonical request and string to sign', () => {
    const canonical = tc3CanonicalRequest('cvm.tencentcloudapi.com', DOC_PAYLOAD);
    expect(canonical).toBe(
      'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\n' +
        'content-type;host\n99d58dfbc6745f6747f36bfca17dee5e6881dc0428a0a36f96199342bc5b4907',
    );
    expect(createHash('sha256').update(canonical).digest('hex')).toBe(
      '2815843035062fffda5fd6f2a44ea8a34818b0dc46f024b8b3786976a3adda7a',
    );
    expect(tc3StringToSign(1551113065, '2019-02-25/cvm/tc3_request', canonical)).toBe(
      'TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n' +
        '2815843035062fffda5fd6f2a44ea8a34818b0dc46f024b8b3786976a3adda7a',
    );
  });

  it('dates the scope in UTC and builds the Authorization header', () => {
    expect(tc3Date(1551113065)).toBe('2019-02-25'); // 2019-02-26 00:44 in Beijing
    const request = {
      service: 'ocr',
      host: 'ocr.tencentcloudapi.com',
      action: 'IDCardOCR',
      version: '2018-11-19',
      payload: '{}',
      timestamp: 1551113065,
    };
    const h = tc3Headers({ secretId: 'AKIDtest', secretKey: 'k' }, request);
    expect(h.authorization).toMatch(
      /^TC3-HMAC-SHA256 Credential=AKIDtest\/2019-02-25\/ocr\/tc3_request, SignedHeaders=content-type;host, Signature=[0-9a-f]{64}$/,
    );
    expect(h).toMatchObject({
      'x-tc-action': 'IDCardOCR',
      'x-tc-version': '2018-11-19',
      'x-tc-timestamp': '1551113065',
    });
    expect(h['x-tc-region']).toBeUndefined();
    const other = tc3Headers({ secretId: 'AKIDtest', secretKey: 'k2' }, request);
    expect(other.authorization).not.toBe(h.authorization);
  });
});

describe('TencentIdCardOcrProvider', () => {
  const card = idCardFront({ name: '王小明', idNumber: ID });

  it('sends the front as Base64 to IDCardOCR and maps Name / IdNum', async () => {
    const t = fakeTencent(() => ({
      Response: { Name: '王小明', IdNum: ID.toLowerCase(), Sex: '男', RequestId: 'r1' },
    }));
    const r = await new TencentIdCardOcrProvider(client(t.fetch), silentLog).read({
      body: card,
      contentType: 'image/png',
    });
    expect(r).toMatchObject({ name: '王小明', idNumber: ID, method: 'provider', outcome: 'read' });
    expect(t.sent[0]!.url).toBe('https://ocr.tencentcloudapi.com/');
    expect(t.sent[0]!.headers).toMatchObject({ 'x-tc-action': 'IDCardOCR', 'x-tc-version': '2018-11-19' });
    expect(t.sent[0]!.body).toEqual({ ImageBase64: card.toString('base64'), CardSide: 'FRONT' });
  });

  it('FailedOperation.* means nothing was read; other failures mean the service is unavailable', async () => {
    const noCard = fakeTencent(() => ({
      Response: { Error: { Code: 'FailedOperation.OcrFailed', Message: 'x' } },
    }));
    const a = await new TencentIdCardOcrProvider(client(noCard.fetch), silentLog).read({
      body: card,
      contentType: 'image/png',
    });
    expect(a).toMatchObject({ name: null, idNumber: null, outcome: 'read' });
    for (const answer of [
      () => ({ Response: { Error: { Code: 'AuthFailure.SignatureFailure' } } }),
      () => ({ status: 502 }),
      () => {
        throw new TypeError('fetch failed');
      },
      () => ({ nothing: true }),
    ]) {
      const t = fakeTencent(answer);
      const r = await new TencentIdCardOcrProvider(client(t.fetch), silentLog).read({
        body: card,
        contentType: 'image/png',
      });
      expect(r).toMatchObject({ name: null, idNumber: null, outcome: 'unavailable' });
    }
  });
});

describe('TencentFaceProvider', () => {
  const person = { name: '王小明', idNumber: ID };

  it('sends the selfie with name and number to ImageRecognition; Sim ≥ 70 passes with identity verified', async () => {
    const selfie = await drawnSelfie();
    const t = fakeTencent(() => ({
      Response: { Sim: 88.5, Result: 'Success', Description: '成功', RequestId: 'r' },
    }));
    const r = await new TencentFaceProvider(client(t.fetch), silentLog).check({
      image: selfie,
      contentType: 'image/jpeg',
      person,
    });
    expect(r).toMatchObject({ passed: true, identityVerified: true, method: 'provider', reasons: [] });
    expect(t.sent[0]!.url).toBe('https://faceid.tencentcloudapi.com/');
    expect(t.sent[0]!.headers).toMatchObject({
      'x-tc-action': 'ImageRecognition',
      'x-tc-version': '2018-03-01',
    });
    expect(t.sent[0]!.body).toMatchObject({ IdCard: ID, Name: '王小明' });
    expect(Buffer.from(String(t.sent[0]!.body.ImageBase64), 'base64').subarray(0, 3)).toEqual(
      Buffer.from([0xff, 0xd8, 0xff]),
    );
  });

  it('maps a low similarity, a refused picture, a missing identity and an outage', async () => {
    const selfie = await drawnSelfie();
    const low = fakeTencent(() => ({ Response: { Sim: 41, Result: 'Success' } }));
    expect(
      await new TencentFaceProvider(client(low.fetch), silentLog).check({
        image: selfie,
        contentType: 'image/jpeg',
        person,
      }),
    ).toMatchObject({
      passed: false,
      identityVerified: false,
      reasons: ['identity-mismatch'],
    });
    for (const answer of [
      () => ({ Response: { Sim: 0, Result: 'FailedOperation.ImageNoFace', Description: '未检测到人脸' } }),
      () => ({ Response: { Error: { Code: 'FailedOperation.ImageBlur', Message: '模糊' } } }),
    ]) {
      const t = fakeTencent(answer);
      const r = await new TencentFaceProvider(client(t.fetch), silentLog).check({
        image: selfie,
        contentType: 'image/jpeg',
        person,
      });
      expect(r).toMatchObject({ passed: false, identityVerified: null, reasons: ['provider-rejected'] });
    }
    const none = fakeTencent(() => ({}));
    const missing = await new TencentFaceProvider(client(none.fetch), silentLog).check({
      image: selfie,
      contentType: 'image/jpeg',
      person: null,
    });
    expect(missing.reasons).toEqual(['identity-missing']);
    expect(none.sent).toHaveLength(0);
    const down = fakeTencent(() => ({ status: 503 }));
    await expect(
      new TencentFaceProvider(client(down.fetch), silentLog).check({
        image: selfie,
        contentType: 'image/jpeg',
        person,
      }),
    ).rejects.toBeInstanceOf(FaceCheckUnavailableError);
  });
});

describe('configuration', () => {
  it('requires the Tencent key pair with OCR_PROVIDER or FACE_PROVIDER = tencent', () => {
    const envs: Record<string, string>[] = [{ OCR_PROVIDER: 'tencent' }, { FACE_PROVIDER: 'tencent' }];
    for (const env of envs) {
      let err: unknown;
      try {
        testConfig(env);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems.join('\n')).toMatch(/TENCENT_SECRET_ID: required when .*=tencent/);
      expect((err as ConfigError).problems.join('\n')).toMatch(/TENCENT_SECRET_KEY/);
    }
    expect(() =>
      testConfig({ OCR_PROVIDER: 'tencent', TENCENT_SECRET_ID: 'a', TENCENT_SECRET_KEY: 'b' }),
    ).not.toThrow();
    expect(() => testConfig({ TENCENT_REGION: 'Guangzhou!' })).toThrow(ConfigError);
    expect(testConfig().OCR_PROVIDER).toBe('local');
    expect(testConfig().FACE_PROVIDER).toBe('local');
  });
});

describe(`the endpoints with the Tencent adapters (${BACKEND})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      env: {
        OCR_PROVIDER: 'tencent',
        FACE_PROVIDER: 'tencent',
        TENCENT_SECRET_ID: 'AKIDtest',
        TENCENT_SECRET_KEY: 'secret',
      },
    });
  });
  afterAll(async () => ctx?.close());
  afterEach(() => vi.unstubAllGlobals());

  /** Uploads through the policy and the local store (same as the H5). */
  const upload = uploadAs;

  it('OCR: the service’s reading is answered with method provider; an outage asks to type it', async () => {
    const { token } = await loginAs(ctx.app);
    const { url } = await upload(
      ctx.app,
      token,
      'idcard',
      idCardFront({ name: '王小明', idNumber: ID }, 'jpeg'),
      'image/jpeg',
    );
    const ocr = () =>
      post(ctx.app, '/api/app/userInfo/getOcrResultByIDCardPic', { image: url }, { accesstoken: token });
    const ok = fakeTencent(() => ({ Response: { Name: '王小明', IdNum: ID } }));
    vi.stubGlobal('fetch', ok.fetch);
    const a = body<{ realName: string; identity: string; valid: boolean; method: string }>(await ocr()).data;
    expect(a).toMatchObject({ realName: '王小明', identity: ID, valid: true, method: 'provider' });
    vi.stubGlobal('fetch', fakeTencent(() => ({ status: 500 })).fetch);
    const b = body<{ realName: null; note: string }>(await ocr()).data;
    expect(b.realName).toBeNull();
    expect(b.note).toMatch(/暂不可用/);
  });

  it('face: name and number from the body, else from the saved form; an outage answers 503 and records nothing', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const { url } = await upload(ctx.app, token, 'face', await drawnSelfie(), 'image/jpeg');
    const faceVerify = (payload: object) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/user/info/faceVerify',
        payload,
        headers: { accesstoken: token },
      });

    // nothing known yet: failed, identity missing, the service not asked
    const none = fakeTencent(() => ({}));
    vi.stubGlobal('fetch', none.fetch);
    const missing = body<{ auditStatus: number; reasons: string[] }>(await faceVerify({ image: url })).data;
    expect(missing).toMatchObject({ auditStatus: 1, reasons: ['请先填写并核验姓名和身份证号'] });
    expect(none.sent).toHaveLength(0);

    const t = fakeTencent(() => ({ Response: { Sim: 92, Result: 'Success' } }));
    vi.stubGlobal('fetch', t.fetch);
    // from the saved application draft
    await ctx.app.inject({
      method: 'POST',
      url: '/api/user/info/tempSave',
      payload: { realName: '李四', identity: '11010519491231002X' },
      headers: { accesstoken: token },
    });
    const passed = body<{ auditStatus: number; identityVerified: boolean; method: string }>(
      await faceVerify({ image: url }),
    ).data;
    expect(passed).toMatchObject({ auditStatus: 2, identityVerified: true, method: 'provider' });
    expect(t.sent[0]!.body).toMatchObject({ Name: '李四', IdCard: '11010519491231002X' });

    // from the body; once passed, only the identity it passed with (issue 16.1), the service not asked
    await faceVerify({ image: url, realName: '李四', identity: '11010519491231002x' });
    expect(t.sent[1]!.body).toMatchObject({ Name: '李四', IdCard: '11010519491231002X' });
    const other = await faceVerify({ image: url, realName: '王小明', identity: ID });
    expect(other.statusCode).toBe(400);
    expect(body(other).msg).toBe('实名信息须与已认证的身份一致');
    expect(t.sent).toHaveLength(2);

    const before = await ctx.app.database.db.select().from(faceChecks).where(eq(faceChecks.userId, uid));
    vi.stubGlobal('fetch', fakeTencent(() => ({ status: 503 })).fetch);
    const down = await faceVerify({ image: url });
    expect(down.statusCode).toBe(503);
    expect(body(down).msg).toMatch(/暂不可用/);
    const after = await ctx.app.database.db.select().from(faceChecks).where(eq(faceChecks.userId, uid));
    expect(after).toHaveLength(before.length);
    const [profile] = await ctx.app.database.db
      .select()
      .from(creditProfiles)
      .where(eq(creditProfiles.userId, uid));
    expect(profile?.auditStatus).toBe(2);
    expect(after.at(-1)).toMatchObject({ provider: 'tencent', identityVerified: true, status: 2 });
  });
});
