import {
  IDENTITY_MISMATCH_MSG,
  type Identity,
  type IdentityField,
  identityConflict,
  normalizeIdNumber,
  normalizeName,
} from '@lm/shared/identity';
import { maskIdCard } from '@lm/shared/mask';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { decryptField, encryptField, type KeyRing } from '../../lib/crypto.ts';
import { type AppError, appError } from '../../lib/errors.ts';
import { IdentityRepository } from './repository.ts';

const FIELD_MESSAGES: Record<IdentityField, string> = {
  realName: '姓名与已认证的姓名不一致',
  identity: '身份证号与已认证的身份证号不一致',
};

/** The refusal of another identity: VALIDATION_FAILED (400) naming the fields that differ. */
export function identityMismatch(fields: IdentityField[]): AppError {
  return appError('VALIDATION_FAILED', IDENTITY_MISMATCH_MSG, {
    fields: fields.map((field) => ({ field, message: FIELD_MESSAGES[field] })),
  });
}

/**
 * A form that fails applicationFormBody after the handler completed it, answered as the body
 * validation answers (first message with its field, every field in data.fields).
 */
export function formValidationError(error: z.ZodError): AppError {
  const fields = error.issues.map((issue) => ({
    field: issue.path.join('.') || 'body',
    message: issue.message,
  }));
  const first = fields[0] ?? { field: 'body', message: '请求参数有误' };
  return appError('VALIDATION_FAILED', `${first.message}（${first.field}）`, { fields });
}

/** What the H5 may show of the verified identity: the name, and the ID number masked (spec §5). */
export interface ShownIdentity {
  verified: boolean;
  realName: string | null;
  identity: string | null;
  verifiedAt: string | null;
}

/**
 * The verified identity of issue 16.1 (credit_profiles.verified_identity_enc): set by the first passed
 * face verification to the name and number it was made with, never replaced afterwards. Every call
 * carrying a name or number, and every match and consent, is checked against it at the edge.
 */
export class VerifiedIdentities {
  constructor(private readonly d: { repo: IdentityRepository; ring: KeyRing }) {}

  /** The repository, on the transaction `tx` when one is given. */
  private on(tx: Db | undefined): IdentityRepository {
    return tx ? new IdentityRepository(tx) : this.d.repo;
  }

  /** The person's verified identity, or null. `tx`: a transaction to read in. */
  async get(userId: number, tx?: Db): Promise<Identity | null> {
    const row = await this.on(tx).findVerified(userId);
    if (!row?.enc) return null;
    return JSON.parse(decryptField(this.d.ring, row.enc)) as Identity;
  }

  /**
   * Refuses (400 实名信息须与已认证的身份一致) a name or number that differs from the verified identity;
   * answers the verified identity (null when there is none).
   */
  async check(
    userId: number,
    submitted: { realName?: string | null | undefined; identity?: string | null | undefined },
    tx?: Db,
  ): Promise<Identity | null> {
    const verified = await this.get(userId, tx);
    const fields = identityConflict(verified, {
      realName: submitted.realName ?? null,
      identity: submitted.identity ?? null,
    });
    if (fields.length > 0) throw identityMismatch(fields);
    return verified;
  }

  /** The verified identity as the H5 shows it (ID number masked). */
  async shown(userId: number): Promise<ShownIdentity> {
    const row = await this.d.repo.findVerified(userId);
    if (!row?.enc) return { verified: false, realName: null, identity: null, verifiedAt: null };
    const id = JSON.parse(decryptField(this.d.ring, row.enc)) as Identity;
    return {
      verified: true,
      realName: id.realName,
      identity: maskIdCard(id.identity),
      verifiedAt: row.at?.toISOString() ?? null,
    };
  }

  /**
   * Records `identity` as verified when the person has none yet (the profile row must exist: the face
   * check writes it in the same transaction). A concurrent first pass with another identity loses.
   */
  async bind(userId: number, identity: Identity, tx: Db, now: Date): Promise<void> {
    const clean = {
      realName: normalizeName(identity.realName),
      identity: normalizeIdNumber(identity.identity),
    };
    await this.on(tx).bindIfUnset(userId, encryptField(this.d.ring, JSON.stringify(clean)), now);
  }
}
