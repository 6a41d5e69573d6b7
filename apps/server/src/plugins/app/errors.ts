import { ErrorCode, errorCatalogue, type FieldError } from '@lm/shared/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isConnectionError } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { isRedisDown } from '../../modules/limits/redis-store.ts';

/** A failure's answer: its status and envelope, and the line to log for it (a dependency down, an unhandled error). */
export interface ErrorAnswer {
  status: number;
  body: { code: number; msg: string; data: unknown };
  log?: { level: 'warn' | 'error'; obj: Record<string, unknown>; msg: string };
}

const answer = (status: number, code: number, msg: string, data: unknown = null): ErrorAnswer => ({
  status,
  body: { code, msg, data },
});

const FIELD_LABELS: Record<string, string> = {
  phone: '手机号',
  mobile: '手机号',
  code: '验证码',
  password: '密码',
};

/** Every failure as the envelope (a 5xx never shows internals): the mapping of Fastify's error handler. */
export function errorAnswer(error: unknown, requestId: string): ErrorAnswer {
  const err = (
    typeof error === 'object' && error !== null ? error : new Error(String(error))
  ) as FastifyError;
  if (err instanceof AppError) return answer(err.status, err.code, err.message, err.data);

  if (hasZodFastifySchemaValidationErrors(err)) {
    const fields: FieldError[] = err.validation.map((v) => {
      const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return { field: field || err.validationContext || 'body', message: v.message ?? '格式不正确' };
    });
    const first = fields[0]!;
    const label = FIELD_LABELS[first.field.split('.')[0] ?? ''];
    const msg = label && first.message.includes(label) ? first.message : `${first.message}（${first.field}）`;
    return answer(400, ErrorCode.VALIDATION_FAILED, msg, { fields });
  }

  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return answer(413, ErrorCode.PAYLOAD_TOO_LARGE, errorCatalogue.PAYLOAD_TOO_LARGE.msg);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return answer(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, errorCatalogue.UNSUPPORTED_MEDIA_TYPE.msg);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return answer(400, ErrorCode.VALIDATION_FAILED, '请求体不能为空');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return answer(400, ErrorCode.VALIDATION_FAILED, '请求体长度不正确');
  }
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return answer(400, ErrorCode.VALIDATION_FAILED, '请求体不是有效的 JSON');
  }
  if (err.statusCode === 429) {
    return answer(429, ErrorCode.RATE_LIMITED, errorCatalogue.RATE_LIMITED.msg);
  }
  if (isConnectionError(err) || isRedisDown(err)) {
    return {
      ...answer(503, ErrorCode.SERVICE_UNAVAILABLE, errorCatalogue.SERVICE_UNAVAILABLE.msg, { requestId }),
      log: {
        level: 'warn',
        obj: { err: { message: err.message, code: err.code } },
        msg: 'dependency unavailable',
      },
    };
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return answer(err.statusCode, ErrorCode.VALIDATION_FAILED, errorCatalogue.VALIDATION_FAILED.msg);
  }
  return {
    ...answer(500, ErrorCode.SERVER_ERROR, errorCatalogue.SERVER_ERROR.msg, { requestId }),
    log: { level: 'error', obj: { err }, msg: 'unhandled error' },
  };
}

/** The methods a route may be declared with (Fastify adds HEAD to every GET route). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const;

/** The methods some route answers `url` with (its path; the query is no part of a route). */
export function allowedMethods(app: FastifyInstance, url: string): string[] {
  const path = url.split('?', 1)[0] ?? '';
  return METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
}

/**
 * For a request no route matched (the not-found handler): when a route answers its path with other methods,
 * answers 405 with those methods in `Allow` (RFC 9110 §15.5.6) and returns true; else returns false, having
 * done nothing (the 404 stands).
 */
export function refuseMethod(req: FastifyRequest, reply: FastifyReply): boolean {
  const allowed = allowedMethods(req.server, req.url);
  if (allowed.length === 0) return false;
  void reply
    .status(405)
    .header('allow', allowed.join(', '))
    .send({
      code: ErrorCode.METHOD_NOT_ALLOWED,
      msg: `${errorCatalogue.METHOD_NOT_ALLOWED.msg}：${req.method}（可用：${allowed.join('、')}）`,
      data: null,
    });
  return true;
}

/** Turns every failure into the envelope; a 5xx never shows internals. */
export default fp(
  async (app) => {
    app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      const failure = errorAnswer(err, req.id);
      if (failure.log) req.log[failure.log.level](failure.log.obj, failure.log.msg);
      return reply.status(failure.status).send(failure.body);
    });
  },
  { name: 'errors' },
);
