import { randomBytes } from 'node:crypto';
import { maskPhone } from '@lm/shared/mask';
import {
  PARTNER_SORTS,
  type PartnerCreateBody,
  type PartnerItem,
  type PartnerList,
  type PartnerListQuery,
  type PartnerSecretData,
  type PartnerUpdateBody,
} from '@lm/shared/schemas/admin-catalog';
import type { Actor } from '../../lib/actor.ts';
import { encryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import type { OutboundPolicy } from '../../lib/partner-http.ts';
import { previousSecretValidUntil } from '../delivery/signing.ts';
import type { MatchService } from '../matching/service.ts';
import { changedOnly, dedupe, validationError } from './edits.ts';
import type { AdminCatalogRepository, PartnerRow } from './repository.ts';
import { endpointAddressProblem } from './rules.ts';

export interface AdminPartnersDeps {
  repo: AdminCatalogRepository;
  ring: KeyRing;
  matching: MatchService;
  /** Where partner endpoints may point (ADR 019): the rules, the allow-list, the resolver. */
  outbound: OutboundPolicy;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** A new HMAC signing secret: 32 random bytes, base64url (43 characters). */
export function newSigningSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The partner, or 404. */
export async function partnerOr404(repo: AdminCatalogRepository, id: number): Promise<PartnerRow> {
  const row = await repo.findPartner(id);
  if (!row) throw appError('NOT_FOUND', '合作机构不存在');
  return row;
}

/** Partners (lenders) for the console (issue 7). Every change is audited. */
export class AdminPartnersService {
  constructor(private readonly d: AdminPartnersDeps) {}

  private toPartner(row: PartnerRow, productCount: number): PartnerItem {
    const until = row.previousSigningSecretEnc ? previousSecretValidUntil(row.secretRotatedAt) : null;
    return {
      id: row.id,
      code: row.code,
      legalName: row.legalName,
      licenceNumber: row.licenceNumber,
      contactName: row.contactName,
      contactPhoneMasked: row.contactPhoneMasked,
      apiEndpoint: row.apiEndpoint,
      dupCheckEndpoint: row.dupCheckEndpoint,
      allowedHosts: row.allowedHosts,
      deliveryModes: row.deliveryModes,
      status: row.status,
      statusQueryEndpoint: row.statusQueryEndpoint,
      pollEnabled: row.pollEnabled,
      pollIntervalMinutes: row.pollIntervalMinutes,
      pollLastAt: iso(row.pollLastAt),
      pollLastError: row.pollLastError,
      returnWindowDays: row.returnWindowDays,
      maxReturnRateBps: row.maxReturnRateBps,
      hasSecret: Boolean(row.signingSecretEnc),
      secretRotatedAt: iso(row.secretRotatedAt),
      previousSecretValidUntil: until && until.getTime() > Date.now() ? until.toISOString() : null,
      productCount,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  /**
   * Refuses an endpoint that is not a public https address (ADR 019): by its URL (any spelling of a
   * private, loopback, link-local, shared, multicast or metadata address; local names), and by what
   * its name resolves to now. The delivery client checks the address again when it connects.
   */
  private async checkEndpoints(body: {
    apiEndpoint?: string | null;
    dupCheckEndpoint?: string | null;
    statusQueryEndpoint?: string | null;
    pollEnabled?: boolean;
  }) {
    const { outbound } = this.d;
    // Polling asks the status query endpoint: there must be one (issue 47.4).
    if (body.pollEnabled && !body.statusQueryEndpoint)
      validationError('开启状态轮询须填写状态查询地址', 'statusQueryEndpoint');
    for (const [field, label] of [
      ['apiEndpoint', '线索推送地址'],
      ['dupCheckEndpoint', '查重地址'],
      ['statusQueryEndpoint', '状态查询地址'],
    ] as const) {
      const value = body[field];
      if (!value) continue;
      const problem = await endpointAddressProblem(
        value,
        outbound,
        outbound.resolve,
        outbound.resolveTimeoutMs,
      );
      if (problem) validationError(`${label}${problem}`, field);
    }
  }

  async listPartners(q: PartnerListQuery): Promise<PartnerList> {
    const sortKey = (PARTNER_SORTS as readonly string[]).includes(q.sort ?? '') ? q.sort! : 'id';
    if (q.sort && sortKey !== q.sort)
      validationError(`不支持按 ${q.sort} 排序，可选：${PARTNER_SORTS.join('、')}`);
    const { total, rows } = await this.d.repo.listPartners(
      { q: q.q, status: q.status },
      sortKey as (typeof PARTNER_SORTS)[number],
      q.order === 'asc' ? 'asc' : 'desc',
      q,
    );
    const counts = await this.d.repo.productCountsByPartner(rows.map((r) => r.id));
    return {
      total,
      page: q.page,
      pageSize: q.pageSize,
      list: rows.map((r) => this.toPartner(r, counts.get(r.id) ?? 0)),
    };
  }

  async getPartner(id: number): Promise<PartnerItem> {
    const row = await partnerOr404(this.d.repo, id);
    return this.toPartner(row, (await this.d.repo.productCountsByPartner([id])).get(id) ?? 0);
  }

  /** Creates a partner with a fresh signing secret, answered once. */
  async createPartner(actor: Actor, body: PartnerCreateBody): Promise<PartnerSecretData> {
    await this.checkEndpoints(body);
    if (await this.d.repo.partnerCodeTaken(body.code))
      validationError(`机构编码 ${body.code} 已存在`, 'code');
    const secret = newSigningSecret();
    const row = await this.d.repo.transaction(async (tx) => {
      const created = await tx.insertPartner({
        code: body.code,
        legalName: body.legalName,
        licenceNumber: body.licenceNumber,
        contactName: body.contactName,
        contactPhoneEnc: encryptField(this.d.ring, body.contactPhone),
        contactPhoneMasked: maskPhone(body.contactPhone),
        apiEndpoint: body.apiEndpoint ?? null,
        dupCheckEndpoint: body.dupCheckEndpoint ?? null,
        statusQueryEndpoint: body.statusQueryEndpoint ?? null,
        pollEnabled: body.pollEnabled,
        pollIntervalMinutes: body.pollIntervalMinutes,
        ...(body.returnWindowDays !== undefined ? { returnWindowDays: body.returnWindowDays } : {}),
        ...(body.maxReturnRateBps !== undefined ? { maxReturnRateBps: body.maxReturnRateBps } : {}),
        signingSecretEnc: encryptField(this.d.ring, secret),
        allowedHosts: dedupe(body.allowedHosts),
        deliveryModes: body.deliveryModes,
        status: body.status,
      });
      await tx.recordAudit(actor, {
        action: 'create',
        entity: 'partner',
        entityId: created.id,
        after: created,
      });
      return created;
    });
    this.d.matching.invalidateCatalog();
    return { partner: this.toPartner(row, 0), secret, previousSecretValidUntil: null };
  }

  async updatePartner(actor: Actor, id: number, body: PartnerUpdateBody): Promise<PartnerItem> {
    await this.checkEndpoints(body);
    const row = await this.d.repo.transaction(async (tx) => {
      const before = await partnerOr404(tx, id);
      const after = await tx.updatePartner(id, {
        legalName: body.legalName,
        licenceNumber: body.licenceNumber,
        contactName: body.contactName,
        ...(body.contactPhone
          ? {
              contactPhoneEnc: encryptField(this.d.ring, body.contactPhone),
              contactPhoneMasked: maskPhone(body.contactPhone),
            }
          : {}),
        apiEndpoint: body.apiEndpoint ?? null,
        dupCheckEndpoint: body.dupCheckEndpoint ?? null,
        statusQueryEndpoint: body.statusQueryEndpoint ?? null,
        pollEnabled: body.pollEnabled,
        pollIntervalMinutes: body.pollIntervalMinutes,
        ...(body.returnWindowDays !== undefined ? { returnWindowDays: body.returnWindowDays } : {}),
        ...(body.maxReturnRateBps !== undefined ? { maxReturnRateBps: body.maxReturnRateBps } : {}),
        allowedHosts: dedupe(body.allowedHosts),
        deliveryModes: body.deliveryModes,
        status: body.status,
        updatedAt: new Date(),
      });
      await tx.recordAudit(actor, {
        action: 'update',
        entity: 'partner',
        entityId: id,
        ...changedOnly(before, after),
      });
      return after;
    });
    this.d.matching.invalidateCatalog();
    return this.getPartner(row.id);
  }

  /**
   * A new signing secret, answered once: deliveries sign with it at once (the worker reads the secret
   * per delivery); callbacks signed with the previous one are accepted for 24 h (SECRET_GRACE_MS).
   * The audit entry records the rotation, never a secret.
   */
  async rotateSecret(actor: Actor, id: number): Promise<PartnerSecretData> {
    const secret = newSigningSecret();
    const now = new Date();
    const row = await this.d.repo.transaction(async (tx) => {
      const before = await partnerOr404(tx, id);
      const after = await tx.updatePartner(id, {
        signingSecretEnc: encryptField(this.d.ring, secret),
        previousSigningSecretEnc: before.signingSecretEnc,
        secretRotatedAt: now,
        updatedAt: now,
      });
      await tx.recordAudit(actor, {
        action: 'rotate-secret',
        entity: 'partner',
        entityId: id,
        before: { secretRotatedAt: before.secretRotatedAt, hadSecret: Boolean(before.signingSecretEnc) },
        after: {
          secretRotatedAt: now,
          previousSecretValidUntil: before.signingSecretEnc ? previousSecretValidUntil(now) : null,
        },
      });
      return after;
    });
    this.d.matching.invalidateCatalog();
    const partner = await this.getPartner(row.id);
    return { partner, secret, previousSecretValidUntil: partner.previousSecretValidUntil };
  }
}
