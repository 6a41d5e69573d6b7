import { decryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import { isAllowedPartnerUrl } from '../../lib/partner-url.ts';
import type { DeliveryRepository } from './repository.ts';
import { type PartnerSecrets, verifyWithRotation } from './signing.ts';

/** A partner as a signed call from it is checked: its secrets (current and, after a rotation, previous). */
export interface SigningPartner {
  id: number;
  secret: string;
  secrets: PartnerSecrets;
  allowedHosts: string[];
}

/** A signed request as the route read it: the two headers and the raw body the signature covers. */
export interface SignedRequest {
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: string;
}

export interface LeadCallback {
  leadId: string;
  status: string;
  partnerRef?: string | undefined;
  loginUrl?: string | undefined;
  message?: string | undefined;
}

/** Calls partners make to us, signed with their secret (match callbacks, joint login). */
export class PartnerCallbacks {
  constructor(private readonly d: { repo: DeliveryRepository; ring: KeyRing }) {}

  /** The partner with this code and its signing secrets; null when unknown or without a secret. */
  async signingPartner(code: string): Promise<SigningPartner | null> {
    const p = await this.d.repo.signingPartner(code);
    if (!p?.secretEnc) return null;
    const secrets: PartnerSecrets = {
      current: decryptField(this.d.ring, p.secretEnc),
      previous: p.previousEnc ? decryptField(this.d.ring, p.previousEnc) : null,
      rotatedAt: p.rotatedAt,
    };
    return { id: p.id, secret: secrets.current, secrets, allowedHosts: p.allowedHosts };
  }

  /** The partner of `code` when `req` is signed by it (the current secret, or the previous within 24 h). */
  async verified(
    code: string | undefined,
    req: SignedRequest,
    unknown = '未知的合作机构',
  ): Promise<SigningPartner> {
    const partner = code ? await this.signingPartner(code) : null;
    if (!partner) throw appError('BAD_SIGNATURE', unknown);
    verifySignature(partner.secrets, req);
    return partner;
  }

  /** Records a lead's callback (its status, the joint-login URL on an allowed host); 404 for another's lead. */
  async recordLeadCallback(partner: SigningPartner, body: LeadCallback): Promise<void> {
    const { leadId, status, partnerRef, loginUrl, message } = body;
    if (loginUrl && !isAllowedPartnerUrl(loginUrl, partner.allowedHosts)) {
      throw appError('VALIDATION_FAILED', 'loginUrl 不在该机构允许的域名内');
    }
    const now = new Date();
    const recorded = await this.d.repo.recordCallback(
      partner.id,
      leadId,
      { status, ...(loginUrl ? { loginUrl } : {}), ...(message ? { message } : {}) },
      partnerRef,
      now,
    );
    if (!recorded) throw appError('NOT_FOUND', '线索不存在');
  }
}

/** Throws BAD_SIGNATURE unless `req` is signed with the current secret or the previous one within its grace. */
export function verifySignature(secrets: PartnerSecrets, req: SignedRequest): void {
  const problem = verifyWithRotation(secrets, req.timestamp, req.signature, req.rawBody, Date.now());
  if (problem) throw appError('BAD_SIGNATURE', problem === 'stale' ? '签名已过期' : undefined);
}
