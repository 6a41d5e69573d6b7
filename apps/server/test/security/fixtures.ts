import type { StaffRole } from '@lm/shared/schemas/auth';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { body, newIp, newPhone } from '../helpers.ts';

export const STAFF_PASSWORD = 'correct horse battery staple';

/** Creates a staff account of `role` and logs it in with its password; returns the console token. */
export async function staffLogin(
  app: FastifyInstance,
  role: StaffRole,
  channelCodes: string[] = ['jd01'],
): Promise<{ token: string; id: number }> {
  const phone = newPhone();
  const created = await app.services.staff.create({
    phone,
    name: `测试${role}`,
    role,
    password: STAFF_PASSWORD,
    ...(role === 'channel_partner' ? { channelCodes } : {}),
  });
  const res = await app.inject({
    method: 'POST',
    url: '/api/crm/admin/login',
    payload: { phone, password: STAFF_PASSWORD },
    remoteAddress: newIp(),
  });
  if (res.statusCode !== 200) throw new Error(`staff login failed: ${res.body}`);
  return { token: body<{ token: string }>(res).data.token, id: created.id };
}

/** Every answer is the envelope {code, msg, data}, with no internals in it. */
export function expectEnvelope(res: { statusCode: number; body: string }) {
  expect(res.statusCode, res.body).toBeLessThan(500);
  const parsed = JSON.parse(res.body) as Record<string, unknown>;
  expect(Object.keys(parsed).sort()).toEqual(['code', 'data', 'msg']);
  expect(typeof parsed.code).toBe('number');
  expect(typeof parsed.msg).toBe('string');
  expectNoInternals(res.body);
}

/** No stack frames, file paths, SQL text or driver messages in an answer. */
export function expectNoInternals(text: string) {
  expect(text).not.toMatch(
    /\bat [\w.<>]+ \(|\/(?:work|srv|home|usr)\/|node_modules|\.ts:\d+|\bstack\b|\bError:|\bselect .* from\b|\binsert into\b|\bsyntax error\b|\brelation "|\bviolates\b|\bduplicate key\b|drizzle|pglite|postgres/i,
  );
}
