import { type CreditInfoFields, creditWizardStep, FaceStatus } from '@lm/shared/credit-info';
import type { CreditInfoPatch } from '@lm/shared/schemas/credit-info';
import { decryptField, encryptField, type KeyRing } from '../../lib/crypto.ts';
import type { CreditInfoRepository } from './repository.ts';

export interface CreditInfoDeps {
  repo: CreditInfoRepository;
  ring: KeyRing;
}

export interface CreditRecord {
  /** The stored fields in clear (only ever returned to their owner). */
  info: CreditInfoFields;
  /** Face status: 0 not started, 1 failed, 2 passed (set by face verification, never here). */
  auditStatus: number;
}

/**
 * The person's credit information (spec §3 "Base/credit info"): one credit_profiles row per person;
 * `dataEnc` holds the whole record as encrypted JSON (this module owns it), `auditStatus` is the face
 * status that face verification owns — nothing here ever writes it.
 */
export class CreditInfoService {
  constructor(private readonly d: CreditInfoDeps) {}

  /**
   * Face verification may create the row first with an empty record ('{}', in clear or encrypted):
   * both read as no information yet.
   */
  private decode(dataEnc: string): CreditInfoFields {
    if (dataEnc.trim() === '' || dataEnc.trim() === '{}') return {};
    const value: unknown = JSON.parse(decryptField(this.d.ring, dataEnc));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as CreditInfoFields) : {};
  }

  async record(userId: number): Promise<CreditRecord> {
    const row = await this.d.repo.find(userId);
    return row
      ? { info: this.decode(row.dataEnc), auditStatus: row.auditStatus }
      : { info: {}, auditStatus: FaceStatus.NOT_STARTED };
  }

  /**
   * Merges `patch` into the stored record (fields given replace, fields absent are kept; `contacts`
   * is replaced as a pair). The row is locked while merging, so concurrent saves of one person never
   * lose a field. A missing row is created with the face status's default (0); an existing row's
   * auditStatus is neither written nor changed.
   */
  async save(userId: number, patch: CreditInfoPatch): Promise<CreditRecord & { savedAt: Date }> {
    return this.d.repo.transaction(async (repo) => {
      await repo.ensureRow(userId, encryptField(this.d.ring, '{}'));
      const row = await repo.lockData(userId);
      const merged: CreditInfoFields = { ...(row ? this.decode(row.dataEnc) : {}), ...patch };
      const saved = await repo.saveData(userId, encryptField(this.d.ring, JSON.stringify(merged)));
      return { info: merged, auditStatus: saved.auditStatus, savedAt: saved.updatedAt };
    });
  }
}

/** The wizard step of a stored record (spec §4; IDENTITY while the face status is not passed). */
export function stepOf(record: CreditRecord) {
  return creditWizardStep({ ...record.info, auditStatus: record.auditStatus });
}
