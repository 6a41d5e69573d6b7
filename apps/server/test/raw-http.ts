/**
 * Requests to a listening test server with Node's own client, answers kept as sent: the status, the header
 * names and values in their order (rawHeaders) and the body's bytes. For what inject() cannot see: the
 * server's request listener (the front of ADRs 042 and 043) and the exact bytes on the wire.
 */
import { request } from 'node:http';
import { expect } from 'vitest';

export interface Raw {
  status: number;
  /** Header names and values as sent, in order (Node's rawHeaders). */
  headers: string[];
  body: Buffer;
}

/** One request on a connection of its own (no keep-alive agent). */
export function sendRaw(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** A header's value as sent (the first of that name, case aside). */
export const rawHeader = (raw: Raw, name: string) => {
  const i = raw.headers.findIndex((h, j) => j % 2 === 0 && h.toLowerCase() === name);
  return i < 0 ? undefined : raw.headers[i + 1];
};

/** The headers with the two that differ per answer (the request id, the date) reduced to their names. */
export const comparableHeaders = (raw: Raw) =>
  raw.headers.map((h, i) => (i % 2 === 1 && /^(x-request-id|date)$/i.test(raw.headers[i - 1]!) ? '…' : h));

/** The two request lines a GET answered 200 writes at `info` (ADR 041), in the front as through Fastify. */
export const requestLinesOf = (reqId: string, url: string, ip: string) => [
  expect.objectContaining({ reqId, msg: 'incoming request', req: { method: 'GET', url, ip } }),
  expect.objectContaining({ reqId, msg: 'request completed', res: { statusCode: 200 } }),
];
