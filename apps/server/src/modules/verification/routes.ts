import { faceVerifyBody, faceVerifyData, ocrIdCardBody, ocrIdCardData } from '@lm/shared/schemas/credit';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';
import { requireUser } from '../../plugins/app/auth.ts';
import type { VerificationService } from './service.ts';

/** ID-card readings per person per hour (each may cost a paid OCR call). */
export const OCR_READS_PER_USER_PER_HOUR = 20;
/** Face checks per person per hour (each may cost a paid verification call). */
export const FACE_CHECKS_PER_USER_PER_HOUR = 10;

const tags = ['credit process'];
const security = [{ accessToken: [] }];

/**
 * Identity part of the credit process (issue 5): ID-card OCR (pre-fills the form) and face
 * verification (sets the face status). Both read a private upload of the caller only.
 */
const verificationRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { limiter, verification: service } = app.services;

  // Before body validation: an anonymous caller learns nothing.
  app.addHook('onRequest', requireUser);

  async function limit(kind: 'ocr' | 'face', userId: number, max: number, what: string) {
    await limiter.enforce(`${kind}:user:${userId}`, max, { ms: 3600_000 }, what);
  }

  app.post(
    '/api/app/userInfo/getOcrResultByIDCardPic',
    {
      schema: {
        tags,
        security,
        summary:
          "Read name and ID number off the front of the caller's own uploaded ID card (folder idcard or " +
          'crm-idcard); a proposal to confirm, not a verification. 404 for any other file.',
        body: ocrIdCardBody,
        refusals: [404, 429],
        response: { 200: envelope(ocrIdCardData) },
      },
    },
    async (req) => {
      await limit('ocr', req.user!.id, OCR_READS_PER_USER_PER_HOUR, '身份证识别');
      return ok(await service.readIdCard(req.user!.id, req.body.image, req.log));
    },
  );

  const faceRoute = {
    schema: {
      tags,
      security,
      summary:
        "Check the caller's own selfie (folder face), record the attempt and set the face status (2 passed, " +
        '1 failed). Local provider: face detection only, identityVerified null. The check is for the ' +
        "body's name and number, else the verified identity, else the saved draft's (none: failed, " +
        '请先填写并核验姓名和身份证号); the first pass makes them the verified identity, and another ' +
        'name or number afterwards answers 400 实名信息须与已认证的身份一致.',
      body: faceVerifyBody,
      refusals: [404, 429] as const,
      response: { 200: envelope(faceVerifyData) },
    },
  };
  const faceHandler = async (req: {
    user: { id: number } | null;
    body: Parameters<VerificationService['verifyFace']>[1];
    log: FastifyBaseLogger;
  }) => {
    await limit('face', req.user!.id, FACE_CHECKS_PER_USER_PER_HOUR, '人脸核验');
    return ok(await service.verifyFace(req.user!.id, req.body, req.log));
  };
  app.post('/api/app/userInfo/faceVerify', faceRoute, faceHandler);
  app.post('/api/user/info/faceVerify', faceRoute, faceHandler);
};

export default verificationRoutes;
