import multipart from '@fastify/multipart';
import type { ErrorCodeName } from '@lm/shared/errors';
import { mayRevealPersonalData } from '@lm/shared/schemas/auth';
import { storedObjectData, uploadPolicyData, uploadPolicyQuery } from '@lm/shared/schemas/upload';
import {
  IMAGE_CONTENT_TYPES,
  UPLOAD_FOLDERS,
  UPLOAD_MAX_BYTES,
  UPLOAD_TOO_LARGE_MSG,
  type Uploader,
} from '@lm/shared/upload';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/actor.ts';
import { envelope, ok } from '../../lib/envelope.ts';
import { type AppError, appError } from '../../lib/errors.ts';
import { requireStaff, requireUser } from '../../plugins/app/auth.ts';
import { LOCAL_STORAGE_PATH } from '../../providers/storage/index.ts';
import { LocalStorageProvider, UploadRefusedError } from '../../providers/storage/local.ts';
import {
  type FormRefusal,
  parseUploadKey,
  type UploadOwner,
  uploadDir,
} from '../../providers/storage/policy.ts';
import type { StaffRow } from '../staff/service.ts';

/** Lifetime of a policy. */
export const UPLOAD_POLICY_TTL_SECONDS = 600;
/** Policies per person (or staff member) per hour. */
export const UPLOAD_POLICIES_PER_HOUR = 60;
/** Files the local store accepts per owner per hour (bounds the disk one account can fill). */
export const UPLOADS_PER_OWNER_PER_HOUR = 60;
/** Room for the form fields and multipart framing around a file of the maximum size. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const TYPES_MSG = '仅支持上传 JPG、PNG、WebP 格式的图片';

/** Every refusal of the local store: envelope code and the message a person reads. */
export const UPLOAD_REFUSALS: Record<
  FormRefusal['reason'] | UploadRefusedError['reason'] | 'not-multipart' | 'missing-file' | 'malformed-form',
  { kind: ErrorCodeName; msg: string }
> = {
  'not-multipart': { kind: 'UNSUPPORTED_MEDIA_TYPE', msg: '请使用 multipart/form-data 表单上传文件' },
  'malformed-form': { kind: 'VALIDATION_FAILED', msg: '上传表单格式不正确' },
  'missing-field': { kind: 'VALIDATION_FAILED', msg: '上传表单缺少字段' },
  'missing-file': { kind: 'VALIDATION_FAILED', msg: '上传表单缺少文件（file 须为最后一个字段）' },
  'bad-signature': { kind: 'BAD_SIGNATURE', msg: '上传签名校验失败' },
  'malformed-policy': { kind: 'VALIDATION_FAILED', msg: '上传凭证格式不正确' },
  expired: { kind: 'FORBIDDEN', msg: '上传凭证已过期，请重新上传' },
  'bad-key': { kind: 'FORBIDDEN', msg: '文件路径不合法' },
  'key-outside-dir': { kind: 'FORBIDDEN', msg: '文件路径不在授权的上传目录内' },
  'type-not-allowed': { kind: 'UNSUPPORTED_MEDIA_TYPE', msg: TYPES_MSG },
  'condition-failed': { kind: 'FORBIDDEN', msg: '上传表单不符合上传凭证的要求' },
  'type-mismatch': { kind: 'UNSUPPORTED_MEDIA_TYPE', msg: '文件内容与图片类型不符' },
  'too-large': { kind: 'PAYLOAD_TOO_LARGE', msg: UPLOAD_TOO_LARGE_MSG },
  empty: { kind: 'VALIDATION_FAILED', msg: '文件不能为空' },
  exists: { kind: 'VALIDATION_FAILED', msg: '文件已存在，请重新上传' },
};

/**
 * The parts of a form; a framing error of the parser itself (no boundary, a truncated body) is the
 * caller's mistake, a 400, not a 500. Errors of the loop body do not pass through here.
 */
async function* formParts<T>(parts: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    for await (const part of parts) yield part;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode) throw err;
    throw refuse('malformed-form');
  }
}

function refuse(reason: keyof typeof UPLOAD_REFUSALS, detail?: string): AppError {
  const r = UPLOAD_REFUSALS[reason];
  return appError(r.kind, detail ? `${r.msg}：${detail}` : r.msg);
}

function retryAfter(ms: number) {
  return appError('RATE_LIMITED', undefined, { retryAfter: Math.ceil(ms / 1000) });
}

/** Form field names as OSS spells them (for the missing-field message). */
const FIELD_NAMES: Record<string, string> = { ossaccesskeyid: 'OSSAccessKeyId' };

interface UploaderIdentity {
  owner: UploadOwner;
  as: Uploader;
}

/** The person (accessToken of a login) or, failing that, a staff member (console token). */
async function uploaderOf(req: FastifyRequest): Promise<UploaderIdentity> {
  try {
    await requireUser(req);
    return { owner: { kind: 'user', id: req.user!.id }, as: 'user' };
  } catch (userError) {
    try {
      await requireStaff()(req);
    } catch {
      throw userError;
    }
    return { owner: { kind: 'staff', id: req.staffMember!.id }, as: 'staff' };
  }
}

/**
 * Uploads (spec §7 "Reporting and misc", §5; issue 5 "Uploads"):
 * - `GET /api/common/upload/policy`: a signed OSS POST policy for one folder and one owner;
 * - local store only: `POST /api/storage` (the OSS-style form);
 * - `GET /api/storage/<key>`, which serves public objects to anyone and private ones to their owner
 *   or to staff who may reveal personal data (audit-logged), 404 to others (issue 15).
 */
const uploadRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { storage, limiter, auth, staff, audit } = app.services;
  const uploaders = new WeakMap<FastifyRequest, UploaderIdentity>();

  app.get(
    '/api/common/upload/policy',
    {
      // Before validation: an anonymous caller learns nothing about the folders.
      onRequest: async (req) => {
        uploaders.set(req, await uploaderOf(req));
      },
      schema: {
        tags: ['uploads'],
        security: [{ accessToken: [] }],
        summary:
          'Signed POST policy (Aliyun OSS v1 format) for one folder: 10 MB, JPEG/PNG/WebP, 10 minutes, a dir ' +
          'of the caller. Person token; a staff token for crm-idcard.',
        querystring: uploadPolicyQuery,
        refusals: [401, 403, 429],
        response: { 200: envelope(uploadPolicyData) },
      },
    },
    async (req) => {
      const { owner, as } = uploaders.get(req)!;
      const rule = UPLOAD_FOLDERS[req.query.image];
      if (!(rule.uploaders as readonly Uploader[]).includes(as)) {
        throw appError('FORBIDDEN', '该上传目录不对后台账号开放');
      }
      const tag = `${owner.kind === 'user' ? 'u' : 's'}${owner.id}`;
      const limit = await limiter.consume(`upload-policy:${tag}`, UPLOAD_POLICIES_PER_HOUR, { ms: 3600_000 });
      if (!limit.allowed) throw retryAfter(limit.retryAfterMs);
      const dir = uploadDir({
        visibility: rule.alwaysPrivate || req.query.isPrivate ? 'private' : 'public',
        folder: req.query.image,
        owner,
      });
      return ok(
        storage.createPolicy({
          dir,
          maxBytes: UPLOAD_MAX_BYTES,
          contentTypes: IMAGE_CONTENT_TYPES,
          expiresInSeconds: UPLOAD_POLICY_TTL_SECONDS,
        }),
      );
    },
  );

  /**
   * Who may read a private object: its owner (the person's accessToken, or the staff member who
   * uploaded to crm-idcard), or a staff member whose role may reveal personal data
   * (`PERSONAL_DATA_ROLES`), whose read is audit-logged like a reveal. Anyone else: null (404).
   */
  async function privateReader(
    req: FastifyRequest,
    owner: UploadOwner,
  ): Promise<{ as: 'owner' } | { as: 'staff'; member: StaffRow } | null> {
    const value = req.headers.accesstoken;
    const token = Array.isArray(value) ? value[0] : value;
    if (!token) return null;
    if (owner.kind === 'user') {
      const user = await auth.authenticate(token).then(
        (r) => r.user,
        () => null,
      );
      if (user) return user.id === owner.id ? { as: 'owner' } : null;
    }
    const member = await staff.authenticate(token).then(
      (r) => r.staff,
      () => null,
    );
    if (!member) return null;
    if (owner.kind === 'staff' && owner.id === member.id) return { as: 'owner' };
    return mayRevealPersonalData(member.role) ? { as: 'staff', member } : null;
  }

  // Request lines of these routes are not logged: keys carry file names.
  app.get(
    `${LOCAL_STORAGE_PATH}/*`,
    {
      logLevel: 'warn',
      schema: {
        tags: ['uploads'],
        summary:
          'An uploaded object: public folders to anyone; private ones to the owner (accessToken) or to staff who ' +
          'may reveal personal data (admin, operator; audit-logged), 404 to others',
      },
    },
    async (req, reply) => {
      const key = (req.params as { '*': string })['*'];
      const parsed = parseUploadKey(key);
      const notFound = appError('NOT_FOUND', '文件不存在');
      if (!parsed || parsed.name === '') throw notFound;
      const isPrivate = parsed.visibility === 'private';
      const reader = isPrivate ? await privateReader(req, parsed.owner) : null;
      if (isPrivate && !reader) throw notFound;
      const object = await storage.getObject(key);
      if (!object) throw notFound;
      if (reader?.as === 'staff') {
        // Like a reveal: who read whose file, without the file name (it may be the person's own).
        await audit.record(actorOf({ ip: req.ip, staffMember: reader.member }), {
          action: 'reveal',
          entity: parsed.owner.kind === 'user' ? 'user' : 'staff',
          entityId: parsed.owner.id,
          after: { field: 'upload', folder: parsed.folder, dir: parsed.dir },
        });
      }
      return reply
        .header('content-type', object.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', 'inline')
        .header('cache-control', isPrivate ? 'private, no-store' : 'public, max-age=31536000, immutable')
        .send(object.body);
    },
  );

  if (storage instanceof LocalStorageProvider) await localUploadRoute(storage);

  async function localUploadRoute(store: LocalStorageProvider) {
    if (!app.hasContentTypeParser('multipart/form-data')) {
      await app.register(multipart, { throwFileSizeLimit: false });
    }
    app.post(
      LOCAL_STORAGE_PATH,
      {
        logLevel: 'warn',
        schema: {
          tags: ['uploads'],
          summary:
            'Local store: the OSS PostObject form (key, policy, OSSAccessKeyId, success_action_status, signature, ' +
            'Content-Type, file last); no token, the signed policy says who uploads where',
          consumes: ['multipart/form-data'],
          refusals: [401, 403, 429],
          response: {
            200: envelope(storedObjectData),
            201: envelope(storedObjectData),
            204: z.undefined().describe('Stored (no success_action_status, as on OSS)'),
          },
        },
      },
      async (req, reply) => {
        // A body that cannot fit is refused before a byte of it is read.
        const declared = Number(req.headers['content-length'] ?? 0);
        if (declared > UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES) {
          reply.header('connection', 'close');
          throw refuse('too-large');
        }
        if (!req.isMultipart()) throw refuse('not-multipart');

        const fields = new Map<string, string>();
        const parts = req.parts({
          limits: {
            fieldNameSize: 100,
            fieldSize: 8 * 1024,
            fields: 20,
            files: 1,
            parts: 22,
            headerPairs: 20,
            fileSize: UPLOAD_MAX_BYTES + 1,
          },
        });
        for await (const part of formParts(parts)) {
          if (part.type === 'field') {
            const name = part.fieldname.toLowerCase();
            if (!fields.has(name)) fields.set(name, String(part.value ?? ''));
            continue;
          }
          // The file: every field the policy needs came before it (as on OSS).
          if (part.fieldname.toLowerCase() !== 'file') {
            part.file.resume();
            continue;
          }
          if (!fields.has('content-type') && part.mimetype) fields.set('content-type', part.mimetype);
          const checked = store.checkForm(fields);
          if (!checked.ok) {
            part.file.destroy();
            reply.header('connection', 'close');
            const field = checked.reason === 'missing-field' ? checked.field : undefined;
            throw refuse(checked.reason, field && (FIELD_NAMES[field] ?? field));
          }
          const owner = parseUploadKey(checked.form.dir)!.owner;
          const tag = `${owner.kind === 'user' ? 'u' : 's'}${owner.id}`;
          const limit = await limiter.consume(`upload-file:${tag}`, UPLOADS_PER_OWNER_PER_HOUR, {
            ms: 3600_000,
          });
          if (!limit.allowed) {
            part.file.destroy();
            reply.header('connection', 'close');
            throw retryAfter(limit.retryAfterMs);
          }
          if (await store.exists(checked.form.key)) {
            part.file.destroy();
            reply.header('connection', 'close');
            throw refuse('exists');
          }
          let saved: Awaited<ReturnType<LocalStorageProvider['save']>>;
          try {
            saved = await store.save(checked.form, owner, part.file);
          } catch (err) {
            if (err instanceof UploadRefusedError) {
              reply.header('connection', 'close');
              throw refuse(err.reason);
            }
            throw err;
          }
          const status = fields.get('success_action_status');
          if (status === '200' || status === '201') {
            return reply.status(Number(status) as 200 | 201).send(
              ok({
                key: saved.key,
                url: `${store.host}/${saved.key}`,
                size: saved.sizeBytes,
                contentType: saved.contentType,
              }),
            );
          }
          return reply.status(204).send();
        }
        throw refuse('missing-file');
      },
    );
  }
};

export default uploadRoutes;
