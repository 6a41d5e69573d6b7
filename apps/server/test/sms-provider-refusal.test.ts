import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND, body, createTestApp, newPhone, sendCode, type TestContext } from './helpers.ts';

/**
 * The SMS gateway refuses a send (here: Aliyun's adapter, whose endpoint closes every connection): the
 * person is told "短信发送失败，请稍后重试" (1004). No SMS went out, so asking again at once goes to the gateway
 * again instead of "验证码已发送，请N秒后再试" for a code that never came.
 */
describe(`a send the SMS gateway refused (${BACKEND})`, () => {
  let ctx: TestContext;
  let gateway: Server;
  let connections = 0;
  beforeAll(async () => {
    gateway = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const address = gateway.address();
    if (!address || typeof address !== 'object') throw new Error('no gateway address');
    ctx = await createTestApp({
      env: {
        SMS_PROVIDER: 'aliyun',
        ALIYUN_SMS_ACCESS_KEY_ID: 'test-key-id',
        ALIYUN_SMS_ACCESS_KEY_SECRET: 'test-key-secret',
        OPERATOR_SMS_SIGNATURE: '星河借款',
        ALIYUN_SMS_TEMPLATE_CODE: 'SMS_000000',
        ALIYUN_SMS_ENDPOINT: `127.0.0.1:${address.port}`,
      },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await new Promise((resolve) => gateway?.close(resolve));
  });

  it('answers 1004, and a second ask goes to the gateway again', async () => {
    const phone = newPhone();
    const first = await sendCode(ctx.app, phone);
    expect(first.statusCode, first.body).toBe(502);
    expect(body(first)).toMatchObject({ code: 1004, msg: '短信发送失败，请稍后重试' });
    const reached = connections;
    expect(reached).toBeGreaterThan(0);

    const second = await sendCode(ctx.app, phone);
    expect(body(second).msg).not.toContain('验证码已发送');
    expect(body(second).code).toBe(1004);
    expect(connections).toBeGreaterThan(reached);
  });
});
