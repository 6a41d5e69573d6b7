import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { body } from './helpers.ts';

export interface Uploaded {
  key: string;
  url: string;
}

/**
 * Asks for a policy and posts the OSS-style form to the local store, as the H5 does (the verification,
 * provider and verified-identity tests).
 */
export async function uploadAs(
  app: FastifyInstance,
  token: string,
  folder: string,
  file: Buffer,
  contentType = 'image/jpeg',
  /** More policy query parameters (e.g. an avatar's). */
  extra: Record<string, string> = {},
): Promise<Uploaded> {
  const res = await app.inject({
    method: 'GET',
    url: `/api/common/upload/policy?${new URLSearchParams({ image: folder, ...extra })}`,
    headers: { accesstoken: token },
  });
  expect(res.statusCode, res.body).toBe(200);
  const p = body<{ accessKeyId: string; dir: string; policy: string; signature: string; host: string }>(
    res,
  ).data;
  const ext = contentType === 'image/png' ? 'png' : 'jpg';
  const key = `${p.dir}${randomBytes(3).toString('hex')}${Date.now()}photo.${ext}`;
  const boundary = `----lm${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const payload = Buffer.concat([
    field('key', key),
    field('policy', p.policy),
    field('OSSAccessKeyId', p.accessKeyId),
    field('success_action_status', '200'),
    field('signature', p.signature),
    field('Content-Type', contentType),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.${ext}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const up = await app.inject({
    method: 'POST',
    url: p.host.replace(/^https?:\/\/[^/]+/, ''),
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  expect(up.statusCode, up.body).toBe(200);
  return body<Uploaded>(up).data;
}
