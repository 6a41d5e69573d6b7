import { FaceStatus } from '@lm/shared/credit-info';
import { identityConflict } from '@lm/shared/identity';
import type { FaceVerifyBody, FaceVerifyData, OcrIdCardData } from '@lm/shared/schemas/credit';
import { checkIdCard, ID_CARD_MESSAGES } from '@lm/shared/validators/id-card';
import type { FastifyBaseLogger } from 'fastify';
import { encryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import { ImageDecodeError } from '../../lib/image.ts';
import {
  FACE_METHOD_NOTES,
  FACE_REASON_MESSAGES,
  FaceCheckUnavailableError,
  type FaceProvider,
} from '../../providers/face/index.ts';
import { type IdCardOcrProvider, OcrEngineError } from '../../providers/ocr/index.ts';
import { parseUploadKey, type StorageProvider } from '../../providers/storage/index.ts';
import type { ApplicationService } from '../applications/service.ts';
import { identityMismatch, type VerifiedIdentities } from '../identity/verified.ts';
import type { VerificationRepository } from './repository.ts';

/** Folders an ID-card front may come from (spec §7: the CRM ID-card folder too). */
export const ID_CARD_FOLDERS = ['idcard', 'crm-idcard'] as const;
export const FACE_FOLDERS = ['face'] as const;

export const OCR_NOTES = {
  read: '以上信息由系统自动识别，仅用于预填，请逐字核对后再提交',
  partial: '未能完整识别姓名和身份证号，请核对并手动补全',
  none: '未能识别出姓名和身份证号，请上传清晰、完整的身份证人像面照片，或手动填写',
  invalid: '识别出的身份证号未通过校验，可能识别有误，请核对后手动修改',
  unavailable: '身份证识别服务暂不可用，请手动填写',
} as const;

export interface VerificationDeps {
  repo: VerificationRepository;
  /** The application drafts: a passed face check writes the verified identity into the draft. */
  drafts: ApplicationService;
  identities: VerifiedIdentities;
  ring: KeyRing;
  storage: StorageProvider;
  ocr: IdCardOcrProvider;
  face: FaceProvider;
  log: FastifyBaseLogger;
}

export interface OwnImage {
  key: string;
  body: Buffer;
  contentType: string;
}

/**
 * ID-card OCR and face verification (issue 5). Both work on a private upload of the caller only:
 * someone else's file, a public one, another folder's or a foreign URL all answer the same 404.
 */
export class VerificationService {
  constructor(private readonly d: VerificationDeps) {}

  /**
   * The bytes of `image` (an object URL of our store, or a key) when it is the person's own private
   * upload in one of `folders`. The owner comes from the key's signed dir; where the store recorded
   * the upload (the local store always does), the record must agree.
   */
  async ownImage(userId: number, image: string, folders: readonly string[]): Promise<OwnImage> {
    const notFound = appError('NOT_FOUND', '图片不存在，请重新上传');
    const key = this.d.storage.keyFromUrl(image) ?? (parseUploadKey(image) ? image : null);
    const parsed = key ? parseUploadKey(key) : null;
    if (!key || !parsed || parsed.name === '') throw notFound;
    if (parsed.visibility !== 'private' || parsed.owner.kind !== 'user' || parsed.owner.id !== userId) {
      throw notFound;
    }
    if (!folders.includes(parsed.folder)) throw notFound;
    const row = await this.d.repo.findUpload(key);
    if (row && (row.ownerUserId !== userId || !row.isPrivate || !folders.includes(row.folder)))
      throw notFound;
    if (!row && this.d.storage.name === 'local') throw notFound;
    const object = await this.d.storage.getObject(key);
    if (!object) throw notFound;
    return { key, body: object.body, contentType: object.contentType };
  }

  /**
   * Reads name and number off the person's ID-card front; nothing is stored. `log`: the request's logger, so
   * its lines carry the request id (issue 19.1).
   */
  async readIdCard(
    userId: number,
    image: string,
    log: FastifyBaseLogger = this.d.log,
  ): Promise<OcrIdCardData> {
    const file = await this.ownImage(userId, image, ID_CARD_FOLDERS);
    let result: Awaited<ReturnType<IdCardOcrProvider['read']>>;
    try {
      result = await this.d.ocr.read({ body: file.body, contentType: file.contentType });
    } catch (err) {
      if (err instanceof ImageDecodeError) {
        throw appError('VALIDATION_FAILED', '图片无法识别，请上传清晰的身份证人像面照片');
      }
      if (err instanceof OcrEngineError) {
        log.warn({ err: { message: err.message }, reason: err.reason }, 'ID-card OCR engine failed');
        throw appError('SERVICE_UNAVAILABLE', '身份证识别繁忙，请稍后重试或手动填写');
      }
      throw err;
    }
    const { name, idNumber } = result;
    const problem = idNumber ? checkIdCard(idNumber) : null;
    const valid = Boolean(idNumber) && problem === null;
    let note: string;
    if (result.outcome === 'unavailable') note = OCR_NOTES.unavailable;
    else if (idNumber && problem) note = `${OCR_NOTES.invalid}（${ID_CARD_MESSAGES[problem]}）`;
    else if (name && idNumber) note = OCR_NOTES.read;
    else if (name || idNumber) note = OCR_NOTES.partial;
    else note = OCR_NOTES.none;
    log.info(
      {
        provider: this.d.ocr.name,
        found: { name: Boolean(name), idNumber: Boolean(idNumber) },
        valid,
        ...result.details,
      },
      'ID card read',
    );
    return { realName: name, identity: idNumber, valid, method: result.method, note };
  }

  /** The person's face status (credit_profiles.auditStatus; NOT_STARTED without a record). */
  async faceStatus(userId: number): Promise<number> {
    return (await this.d.repo.findFaceStatus(userId)) ?? FaceStatus.NOT_STARTED;
  }

  /**
   * Checks the person's selfie, records the attempt (face_checks) and sets the face status
   * (credit_profiles.auditStatus: 2 passed, 1 failed — the latest attempt decides). When the check
   * cannot run (service outage, detector busy) nothing is recorded and the status is unchanged.
   */
  async verifyFace(
    userId: number,
    body: FaceVerifyBody,
    log: FastifyBaseLogger = this.d.log,
  ): Promise<FaceVerifyData> {
    const file = await this.ownImage(userId, body.image, FACE_FOLDERS);
    // Who the check is for: the body's name and number (never another than the verified identity),
    // else the verified identity, else the saved application draft's.
    const verified = await this.d.identities.get(userId);
    let person: { name: string; idNumber: string } | null = null;
    if (body.realName && body.identity) {
      const fields = identityConflict(verified, body);
      if (fields.length > 0) throw identityMismatch(fields);
      person = { name: body.realName, idNumber: body.identity };
    } else if (verified) {
      person = { name: verified.realName, idNumber: verified.identity };
    } else {
      const draft = await this.d.drafts.draft(userId);
      if (draft.realName && draft.identity) person = { name: draft.realName, idNumber: draft.identity };
    }
    let result: Awaited<ReturnType<FaceProvider['check']>>;
    if (!person) {
      // A face check is for someone: without a name and number nothing can pass (issue 16.1).
      result = {
        passed: false,
        identityVerified: null,
        method: this.d.face.needsIdentity ? 'provider' : 'local-detection',
        reasons: ['identity-missing'],
        details: {},
      };
    } else {
      try {
        result = await this.d.face.check({
          image: file.body,
          contentType: file.contentType,
          person: this.d.face.needsIdentity ? person : null,
        });
      } catch (err) {
        if (err instanceof FaceCheckUnavailableError) {
          log.warn({ err: { message: err.message } }, 'face check could not run');
          throw appError(
            'SERVICE_UNAVAILABLE',
            err.busy ? '人脸核验繁忙，请稍后重试' : '人脸核验服务暂不可用，请稍后重试',
          );
        }
        throw err;
      }
    }
    const status = result.passed ? FaceStatus.PASSED : FaceStatus.FAILED;
    const now = new Date();
    await this.d.repo.transaction(async (repo, tx) => {
      await repo.insertFaceCheck({
        userId,
        fileKey: file.key,
        status,
        provider: this.d.face.name,
        identityVerified: result.identityVerified,
        details: { method: result.method, reasons: result.reasons, ...result.details },
      });
      // Only the face status and its time: the rest of the row belongs to the credit-information module.
      await repo.setFaceStatus(userId, status, encryptField(this.d.ring, '{}'), now);
      // The first pass makes the identity it was made with the person's verified identity (issue 16.1).
      if (result.passed && person) {
        await this.d.identities.bind(userId, { realName: person.name, identity: person.idNumber }, tx, now);
      }
    });
    // The application draft carries the verified identity from now on.
    if (result.passed && person && !verified) {
      const bound = await this.d.identities.get(userId);
      if (bound) await this.d.drafts.tempSave(userId, bound);
    }
    log.info(
      {
        provider: this.d.face.name,
        passed: result.passed,
        reasons: result.reasons,
        identityVerified: result.identityVerified,
      },
      'face check',
    );
    return {
      auditStatus: status,
      passed: result.passed,
      identityVerified: result.identityVerified,
      method: result.method,
      reasons: result.reasons.map((r) => FACE_REASON_MESSAGES[r]),
      note: FACE_METHOD_NOTES[result.method],
    };
  }
}
