import { ErrorCode, type ErrorCodeName } from '@lm/shared/errors';
import type { FastifyInstance } from 'fastify';
import { appError } from '../../lib/errors.ts';
import { SIGNATURE_HEADER, sign, TIMESTAMP_HEADER } from './signing.ts';

/**
 * The sandbox lender `code` makes a signed call of ours (`POST url`, e.g. /api/partner/outcomes or
 * /api/partner/returns) as a lender would: `{version: 1, transactionId, ...body}` signed with its secret, through
 * the whole request path (hooks, validation, the signature check). Answers that call's answer; a refusal is
 * thrown again with the same code and words to whoever triggered it.
 */
export async function callAsSandboxLender<T>(
  app: FastifyInstance,
  code: string,
  url: string,
  transactionPrefix: string,
  body: object,
): Promise<{ code: 200; msg: string; data: T }> {
  const partner = await app.services.partnerCallbacks.signingPartner(code);
  if (!partner) throw appError('NOT_FOUND', '未知的合作机构');
  const raw = JSON.stringify({
    version: 1,
    transactionId: `${transactionPrefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    ...body,
  });
  const ts = Math.floor(Date.now() / 1000);
  const res = await app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      'x-lm-partner': code,
      [TIMESTAMP_HEADER]: String(ts),
      [SIGNATURE_HEADER]: sign(partner.secret, ts, raw),
    },
    payload: raw,
  });
  const answer = res.json() as { code: number; msg: string; data: unknown };
  if (res.statusCode === 200) return answer as { code: 200; msg: string; data: T };
  const kind = (Object.keys(ErrorCode) as ErrorCodeName[]).find((k) => ErrorCode[k] === answer.code);
  throw appError(kind ?? 'VALIDATION_FAILED', answer.msg, answer.data);
}
