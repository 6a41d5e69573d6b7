/**
 * Helpers for journeys that prepare a person through the API before the browser takes over: the
 * envelope-checking call, the demo application form, and a logged-in person with their session.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

export interface ApiInit {
  method?: string;
  body?: unknown;
  token?: string;
}

/** Calls the API of `baseUrl`; answers `data`, or throws with the envelope's code and message. */
export async function apiCall<T>(baseUrl: string, path: string, init: ApiInit = {}): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { accessToken: init.token } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const body = (await res.json()) as Envelope<T>;
  if (body.code !== 200) throw new Error(`${path}: ${body.code} ${body.msg}`);
  return body.data;
}

/** The demo application form: a Shenzhen employee several seeded lenders match (the API tests' form). */
export { FORM as DEMO_FORM } from '../apps/server/test/fixtures.ts';

export interface Person {
  token: string;
  uid: number;
  phone: string;
}

/** A new person logged in on the demo channel with the code from the dev SMS outbox. */
export async function loginPerson(baseUrl: string, prefix = '139'): Promise<Person> {
  const phone = `${prefix}${String(Date.now()).slice(-8)}`;
  await apiCall(baseUrl, '/api/login/sendPhoneVerifyCode', { body: { phone } });
  const [sms] = await apiCall<{ code: string }[]>(baseUrl, `/api/dev/sms-outbox?phone=${phone}`);
  const login = await apiCall<{ token: string; loginUser: { uid: number } }>(baseUrl, '/api/login', {
    body: { mobile: phone, code: sms!.code, adChannelCode: 'demo', abTestType: 17 },
  });
  return { token: login.token, uid: login.loginUser.uid, phone };
}

/** Makes every page of `context` start logged in as `person` on the demo channel (as the H5 stores it). */
export async function signIn(context: BrowserContext, person: Person | null): Promise<void> {
  await context.addInitScript((p: Person | null) => {
    localStorage.setItem('ad_channel_code', 'demo');
    if (p) {
      localStorage.setItem('TOKEN', p.token);
      localStorage.setItem('user_uid', String(p.uid));
      localStorage.setItem('user_phone', p.phone);
    }
  }, person);
}

/** The newest code the dev SMS outbox of `baseUrl` holds for `phone`. */
export async function outboxCode(baseUrl: string, phone: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/dev/sms-outbox?phone=${phone}`);
  const body = (await res.json()) as { data: { code: string }[] };
  return body.data[0]!.code;
}

/**
 * On a page showing the login card: types `phone`, asks for a code, types it from the dev outbox, ticks
 * the agreements and taps `submit` (登录 on /login, 立即申请 on a landing).
 */
export async function logInWithCode(
  page: Page,
  baseUrl: string,
  phone: string,
  submit: string,
): Promise<void> {
  await page.getByPlaceholder('请输入手机号').fill(phone);
  await page.getByText('获取验证码').click();
  await expect.poll(() => page.getByText('验证码已发送').count(), { timeout: 15_000 }).toBeGreaterThan(0);
  await page.getByPlaceholder('请输入验证码').fill(await outboxCode(baseUrl, phone));
  await page.getByText('我已阅读并同意').click();
  await page.getByRole('button', { name: submit }).click();
}
