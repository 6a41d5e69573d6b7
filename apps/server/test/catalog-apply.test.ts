import { shanghaiDate } from '@lm/shared/time';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  agreementTexts,
  consents,
  matchOffers,
  matchRuns,
  productEvents,
  products,
} from '../src/db/schema.ts';
import {
  AGENT_SERVICE_HOURS,
  agentFor,
  outsideHoursMessage,
  PRODUCT_UNAVAILABLE_MSG,
  TARGET_URL_MISSING_MSG,
  TARGET_URL_NOT_ALLOWED_MSG,
} from '../src/modules/catalog/rules.ts';
import { DEMO_CHANNELS } from '../src/modules/channels/seed.ts';
import { DEMO_OPERATORS } from '../src/modules/operators/seed.ts';
import { CLOSED_NOW, ctx, db, get, ids, post, type TodayItem, useCatalogApp } from './catalog-setup.ts';
import { BACKEND, body, loginAs, newIp } from './helpers.ts';

useCatalogApp();

describe(`apply, today's applies and the jump flag (${BACKEND})`, () => {
  const events = (userId: number, kind?: 'apply' | 'exposure' | 'jump_success') =>
    db()
      .select()
      .from(productEvents)
      .where(
        kind
          ? and(eq(productEvents.userId, userId), eq(productEvents.kind, kind))
          : eq(productEvents.userId, userId),
      );

  it('need login, checked before the body', async () => {
    for (const token of [undefined, 'forged-token']) {
      for (const [url, payload] of [
        ['/api/product/apply', { productId: ids['a-jisudai'] }],
        ['/api/product/apply', { productId: 'not-a-number' }],
        ['/api/product/apiH5JumpUrlSuccessFlag', { productId: ids['a-jisudai'] }],
      ] as const) {
        const res = await post(url, payload, token);
        expect(res.statusCode, url).toBe(401);
        expect(body(res).code).toBe(401);
      }
      const today = await get('/api/product/listTodayApplyProduct', token);
      expect(today.statusCode).toBe(401);
    }
  });

  it('apply answers the partner page and records one apply per product and placement a day', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const res = await post(
      '/api/product/apply',
      { productId: String(ids['a-jisudai']), entranceType: 6, appH5: 4 },
      token,
    );
    expect(res.statusCode).toBe(200);
    expect(body(res)).toEqual({
      code: 200,
      msg: 'success',
      data: { thirdpartyTargetUrl: 'https://partner-a.example.com/apply?from=lm', linkType: 1 },
    });
    const [event] = await events(uid, 'apply');
    expect(event).toMatchObject({
      userId: uid,
      productId: ids['a-jisudai'],
      kind: 'apply',
      entranceType: 6,
      appH5: 4,
      day: shanghaiDate(),
    });

    // Again from the same placement: answered, not stored twice.
    expect(
      (await post('/api/product/apply', { productId: ids['a-jisudai'], entranceType: 6 }, token)).statusCode,
    ).toBe(200);
    expect(await events(uid, 'apply')).toHaveLength(1);
    // From another placement: a second row. Empty values are absent (placement 0, appH5 4).
    expect(
      (
        await post(
          '/api/product/apply',
          { productId: ids['a-jisudai'], entranceType: '', appH5: null },
          token,
        )
      ).statusCode,
    ).toBe(200);
    const rows = await events(uid, 'apply');
    expect(rows.map((r) => [r.entranceType, r.appH5]).sort()).toEqual([
      [0, 4],
      [6, 4],
    ]);

    // A product without a partner page (API link type): null, the person goes through the form.
    const api = await post('/api/product/apply', { productId: ids['a-xinyongdai'], entranceType: 5 }, token);
    expect(body(api).data).toEqual({ thirdpartyTargetUrl: null, linkType: 2 });
    // Concurrent applies from one placement are one row.
    const burst = await Promise.all(
      Array.from({ length: 5 }, () =>
        post('/api/product/apply', { productId: ids['e-h5form'], entranceType: 4 }, token),
      ),
    );
    for (const r of burst) expect(r.statusCode).toBe(200);
    expect((await events(uid, 'apply')).filter((r) => r.productId === ids['e-h5form'])).toHaveLength(1);
  });

  it('apply refuses unpublished products, suspended lenders, closed hours and pages off the allowed hosts', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const refused = async (productId: number, status: number, msg: string) => {
      const res = await post('/api/product/apply', { productId, entranceType: 6, appH5: 4 }, token);
      expect(res.statusCode, String(productId)).toBe(status);
      expect(body(res)).toMatchObject({ code: status, msg, data: { productId: String(productId) } });
    };
    await refused(ids['a-paused']!, 404, PRODUCT_UNAVAILABLE_MSG);
    await refused(ids['c-draft-high-apr']!, 404, PRODUCT_UNAVAILABLE_MSG);
    await refused(ids['zz-suspended-h5']!, 404, PRODUCT_UNAVAILABLE_MSG);
    await refused(ids['zz-bad-host']!, 403, TARGET_URL_NOT_ALLOWED_MSG);
    await refused(ids['zz-no-url']!, 403, TARGET_URL_MISSING_MSG);
    await refused(ids['zz-closed']!, 403, outsideHoursMessage(CLOSED_NOW));
    await refused(2_000_000_000, 404, '产品不存在');
    expect(TARGET_URL_NOT_ALLOWED_MSG).toMatch(/\p{Script=Han}/u);
    expect(await events(uid)).toEqual([]);

    // The allowed host, compared case-insensitively.
    const good = await post('/api/product/apply', { productId: ids['zz-good-h5'] }, token);
    expect(body(good).data).toEqual({
      thirdpartyTargetUrl: 'https://GOOD.example.com/form?from=lm',
      linkType: 4,
    });
  });

  it('apply validates the body in Chinese, naming the field', async () => {
    const { token } = await loginAs(ctx.app);
    for (const [payload, text] of [
      [{}, '请提供产品编号 productId'],
      [{ productId: 'abc' }, '产品编号 productId 必须是整数'],
      [{ productId: 1.5 }, '产品编号 productId 必须是整数'],
      [{ productId: ids['a-jisudai'], entranceType: 8 }, '广告位 entranceType 应在0到7之间'],
      [{ productId: ids['a-jisudai'], entranceType: -1 }, '广告位 entranceType'],
      [{ productId: ids['a-jisudai'], appH5: 'h5' }, '来源端 appH5 必须是整数'],
    ] as const) {
      const res = await post('/api/product/apply', payload, token);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).msg).toContain(text);
    }
    const notObject = await ctx.app.inject({
      method: 'POST',
      url: '/api/product/apply',
      payload: '[1]',
      headers: { accesstoken: token, 'content-type': 'application/json' },
    });
    expect(notObject.statusCode).toBe(400);
    expect(body(notObject).msg).toContain('请求数据必须是对象');
  });

  it("listTodayApplyProduct lists today's applies and consents (Shanghai day), most recent first", async () => {
    const { token, uid } = await loginAs(ctx.app);
    const other = await loginAs(ctx.app);
    const list = async () => body<TodayItem[]>(await get('/api/product/listTodayApplyProduct', token)).data;
    expect(await list()).toEqual([]);

    await post('/api/product/apply', { productId: ids['a-jisudai'], entranceType: 6 }, token);
    await post('/api/product/apply', { productId: ids['a-jisudai'], entranceType: 4 }, token);
    await post('/api/product/apply', { productId: ids['e-h5form'], entranceType: 6 }, other.token);

    // Yesterday's apply and consent do not count; nor do another person's.
    const yesterday = shanghaiDate(new Date(Date.now() - 86_400_000));
    await db().insert(productEvents).values({
      userId: uid,
      productId: ids['c-quanliucheng']!,
      kind: 'apply',
      entranceType: 6,
      appH5: 4,
      day: yesterday,
    });
    const consent = async (code: string, createdAt: Date) => {
      const [p] = await db().select().from(products).where(eq(products.code, code));
      const [run] = await db()
        .insert(matchRuns)
        .values({ userId: uid, matchType: 1, source: 'form', profileEnc: 'v1.test' })
        .returning({ id: matchRuns.id });
      const [offer] = await db()
        .insert(matchOffers)
        .values({
          runId: run!.id,
          userId: uid,
          productId: p!.id,
          partnerId: p!.partnerId,
          rank: 1,
          capDay: shanghaiDate(createdAt),
          status: 'consented',
        })
        .returning({ id: matchOffers.id });
      const hash = `test-${code}-${createdAt.getTime()}`;
      await db().insert(agreementTexts).values({
        hash,
        agreementCode: 'information-agreement',
        version: '1',
        title: '授权书',
        content: '…',
      });
      await db()
        .insert(consents)
        .values({
          userId: uid,
          offerId: offer!.id,
          productId: p!.id,
          partnerId: p!.partnerId,
          agreementCode: 'information-agreement',
          agreementVersion: '1',
          textHash: hash,
          fields: ['realName'],
          createdAt,
        });
    };
    await consent('b-shebao', new Date(Date.now() - 86_400_000 - 60_000));
    await consent('a-xinyongdai', new Date(Date.now() + 1000));
    await consent('a-jisudai', new Date(Date.now() - 500));

    const today = await list();
    expect(today.map((p) => p.productName)).toEqual(['星河信用贷', '星河极速贷']);
    expect(today[0]).toMatchObject({
      id: String(ids['a-xinyongdai']),
      sources: ['consent'],
      lenderLegalName: '星河消费金融有限公司',
      thirdpartyTargetUrl: null,
    });
    expect(today[1]!.sources).toEqual(['apply', 'consent']);
    for (const p of today) {
      expect(shanghaiDate(new Date(p.appliedAt))).toBe(shanghaiDate());
    }
    expect(
      body<TodayItem[]>(await get('/api/product/listTodayApplyProduct', other.token)).data.map((p) => p.id),
    ).toEqual([String(ids['e-h5form'])]);
  });

  it('apiH5JumpUrlSuccessFlag records a jump once per product a day', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const flag = (payload: unknown) => post('/api/product/apiH5JumpUrlSuccessFlag', payload, token);
    const first = await flag({ productId: ids['a-jisudai'], entranceType: 6, appH5: 4 });
    expect(first.statusCode).toBe(200);
    expect(body(first).data).toEqual({ recorded: true });
    expect(body(await flag({ productId: ids['a-jisudai'], entranceType: 5 })).data).toEqual({
      recorded: false,
    });
    const rows = await events(uid, 'jump_success');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      productId: ids['a-jisudai'],
      entranceType: 6,
      appH5: 4,
      day: shanghaiDate(),
    });

    // Yesterday's jump does not block today's.
    await db()
      .insert(productEvents)
      .values({
        userId: uid,
        productId: ids['e-h5form']!,
        kind: 'jump_success',
        entranceType: 6,
        appH5: 4,
        day: shanghaiDate(new Date(Date.now() - 86_400_000)),
      });
    expect(body(await flag({ productId: ids['e-h5form'] })).data).toEqual({ recorded: true });

    const unknown = await flag({ productId: 2_000_000_000 });
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown).msg).toBe('产品不存在');
    expect((await flag({})).statusCode).toBe(400);
  });
});

describe(`reportProductExposure (${BACKEND})`, () => {
  const exposures = (productId: number) =>
    db()
      .select()
      .from(productEvents)
      .where(and(eq(productEvents.productId, productId), eq(productEvents.kind, 'exposure')));

  it('records a logged-in exposure once per product, placement and day', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const id = ids['zz-good-h5']!;
    const report = (qs: string) => get(`/api/reportProductExposure?productId=${id}&${qs}`, token, newIp());
    const first = await report('entranceType=6&appH5=4');
    expect(first.statusCode).toBe(200);
    expect(body(first)).toEqual({ code: 200, msg: 'success', data: { recorded: true } });
    expect(body(await report('entranceType=6&appH5=4')).data).toEqual({ recorded: false });
    expect(body(await report('entranceType=5')).data).toEqual({ recorded: true });
    const mine = (await exposures(id)).filter((r) => r.userId === uid);
    expect(mine.map((r) => r.entranceType).sort()).toEqual([5, 6]);
    for (const r of mine) expect(r.day).toBe(shanghaiDate());

    // Concurrent reports of one exposure store one row.
    const burst = await Promise.all(Array.from({ length: 6 }, () => report('entranceType=7')));
    expect(burst.map((r) => body<{ recorded: boolean }>(r).data.recorded).filter(Boolean)).toHaveLength(1);

    // An exposure stored yesterday does not block today's.
    await db()
      .insert(productEvents)
      .values({
        userId: uid,
        productId: ids['a-jisudai']!,
        kind: 'exposure',
        entranceType: 4,
        appH5: 4,
        day: shanghaiDate(new Date(Date.now() - 86_400_000)),
      });
    const today = await get(`/api/reportProductExposure?productId=${ids['a-jisudai']}&entranceType=4`, token);
    expect(body(today).data).toEqual({ recorded: true });
  });

  it('works anonymously (every report stored, no user) and with a bad token', async () => {
    const id = ids['a-xinyongdai']!;
    const before = (await exposures(id)).length;
    for (const token of [undefined, undefined, 'forged-token']) {
      const res = await get(
        `/api/reportProductExposure?productId=${id}&entranceType=6&appH5=4`,
        token,
        newIp(),
      );
      expect(res.statusCode).toBe(200);
      expect(body(res).data).toEqual({ recorded: true });
    }
    const rows = (await exposures(id)).sort((a, b) => a.id - b.id);
    expect(rows.length - before).toBe(3);
    expect(rows.slice(-3).every((r) => r.userId === null && r.entranceType === 6)).toBe(true);
  });

  it('stores nothing for an unlisted product, 404 for an unknown one, 400 for a bad query', async () => {
    const paused = await get(`/api/reportProductExposure?productId=${ids['a-paused']}&entranceType=6`);
    expect(body(paused).data).toEqual({ recorded: false });
    expect(await exposures(ids['a-paused']!)).toEqual([]);
    expect((await get('/api/reportProductExposure?productId=2000000000')).statusCode).toBe(404);
    for (const [qs, text] of [
      ['', '请提供产品编号 productId'],
      [`productId=${ids['a-jisudai']}&entranceType=9`, '广告位 entranceType 应在0到7之间'],
      [`productId=${ids['a-jisudai']}&appH5=x`, '来源端 appH5 必须是整数'],
    ] as const) {
      const res = await get(`/api/reportProductExposure?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(body(res).msg).toContain(text);
    }
    // Empty placement and source are absent: 0 (unknown) and 4 (H5).
    const { token, uid } = await loginAs(ctx.app);
    await get(`/api/reportProductExposure?productId=${ids['e-h5form']}&entranceType=&appH5=`, token);
    const [row] = (await exposures(ids['e-h5form']!)).filter((r) => r.userId === uid);
    expect(row).toMatchObject({ entranceType: 0, appH5: 4 });
  });

  it('caps reports per IP per hour', async () => {
    const ip = newIp();
    const { EXPOSURES_PER_IP_PER_HOUR } = await import('../src/modules/catalog/service.ts');
    // Use up the allowance directly in the limiter, then one more report is refused.
    for (let i = 0; i < EXPOSURES_PER_IP_PER_HOUR; i++)
      await ctx.app.services.limiter.consume(`exposure:ip:${ip}`, EXPOSURES_PER_IP_PER_HOUR, {
        ms: 3600_000,
      });
    const res = await get(`/api/reportProductExposure?productId=${ids['a-jisudai']}`, undefined, ip);
    expect(res.statusCode).toBe(429);
    expect(body(res).code).toBe(429);
    expect(body(res).msg).toMatch(/^曝光上报过于频繁/);
  });
});

describe(`agent (${BACKEND})`, () => {
  /** The footer record of a demo channel: its operator's (ADR 057). */
  const footer = (code: string) => {
    const op = DEMO_OPERATORS.find(
      (o) => o.code === DEMO_CHANNELS.find((c) => c.adChannelCode === code)!.operatorCode,
    )!;
    return { companyName: op.companyName, filingNumber: op.filingNumber };
  };

  it("answers the channel's customer-service contact: query, else the person's channel, else default", async () => {
    const demo = body<Record<string, unknown>>(await get('/api/agent/get?adChannelCode=demo')).data;
    expect(demo).toEqual({
      adChannelCode: 'demo',
      agentName: '在线客服',
      operatorName: footer('demo').companyName,
      operatorFilingNumber: footer('demo').filingNumber,
      serviceHours: AGENT_SERVICE_HOURS,
      online: agentFor({ adChannelCode: 'demo', footer: [] }, new Date()).online,
    });

    const { token } = await loginAs(ctx.app, undefined, { adChannelCode: 'demo-fenqile' });
    const mine = body<Record<string, unknown>>(await get('/api/agent/get', token)).data;
    expect(mine).toMatchObject({
      adChannelCode: 'demo-fenqile',
      operatorName: footer('demo-fenqile').companyName,
    });
    // The query wins over the person's channel.
    expect(
      body<Record<string, unknown>>(await get('/api/agent/get?adChannelCode=demo', token)).data,
    ).toMatchObject({
      adChannelCode: 'demo',
    });

    for (const url of [
      '/api/agent/get',
      '/api/agent/get?adChannelCode=',
      '/api/agent/get?adChannelCode=no-such',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      // No channel: the configured operator (OPERATOR_*), whom the default pages' agreements name (ADR 057).
      expect(body(res).data).toMatchObject({
        adChannelCode: '',
        operatorName: ctx.app.config.OPERATOR_NAME,
        agentName: '在线客服',
      });
    }
    const bad = await get('/api/agent/get?adChannelCode=%3Cscript%3E');
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toContain('渠道码');
  });

  it('documents every products call in the OpenAPI document', async () => {
    const doc = (await get('/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
    for (const [path, method] of [
      ['/api/product/topRecommend', 'get'],
      ['/api/product/productList', 'get'],
      ['/api/product/detail', 'get'],
      ['/api/product/randomRecommend', 'get'],
      ['/api/product/listTodayApplyProduct', 'get'],
      ['/api/product/columnRecommendProductList', 'get'],
      ['/api/product/h5product/union', 'get'],
      ['/api/product/apply', 'post'],
      ['/api/product/apiH5JumpUrlSuccessFlag', 'post'],
      ['/api/reportProductExposure', 'get'],
      ['/api/agent/get', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], path).toBeDefined();
    }
  });
});
