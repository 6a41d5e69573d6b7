import { randomUUID } from 'node:crypto';
import { identityConflict } from '@lm/shared/identity';
import type { ApplicationForm } from '@lm/shared/schemas/application';
import type { DeliveryMode, LeadStatus } from '../../db/schema.ts';
import { decryptField, encryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import type { Metrics } from '../../lib/metrics.ts';
import { isAllowedPartnerUrl } from '../../lib/partner-url.ts';
import type { AuthUser } from '../auth/service.ts';
import { CapsRepository } from '../caps/repository.ts';
import { identityMismatch, type VerifiedIdentities } from '../identity/verified.ts';
import { OperatorRepository } from '../operators/repository.ts';
import type { Operators } from '../operators/service.ts';
import { type RenderedAgreement, renderInfoAgreement } from './agreement.ts';
import type { ConsentRepository } from './repository.ts';

export interface ConsentDeps {
  repo: ConsentRepository;
  /** Cap slots of the offers declined. */
  caps: CapsRepository;
  identities: VerifiedIdentities;
  /** The operator a consent's text names: the one of the channel the run was made through (ADR 057). */
  operators: Pick<Operators, 'forChannel' | 'within'>;
  ring: KeyRing;
  /** Counts consents and declines. */
  metrics?: Metrics | undefined;
}

export interface ConsentMeta {
  ip: string | undefined;
  userAgent: string | undefined;
  /** The consenting request's id: stored on its leads and sent to the lenders (x-request-id). */
  requestId?: string | undefined;
}

export interface ConsentedItem {
  productId: string;
  productName: string;
  /** The lender's legal name and the product's APR (bps): every result names both (issue 6). */
  lenderName: string;
  aprBps: number | null;
  consentId: number;
  mode: DeliveryMode;
  thirdpartyTargetUrl: string | null;
}

/** Lead status a new lead starts in, by the partner's delivery mode. */
export function initialLeadStatus(mode: DeliveryMode, hasEndpoint: boolean): LeadStatus {
  if (mode === 'api') return hasEndpoint ? 'pending' : 'dead';
  if (mode === 'h5Redirect') return 'redirect';
  if (mode === 'callback' || mode === 'jointLogin') return 'awaiting_callback';
  return 'redirect';
}

/** Only the fields the person consented to share (and that the form has). */
export function consentedPayload(
  form: ApplicationForm,
  mobile: string | null,
  fields: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const source: Record<string, unknown> = { ...form, mobile };
  for (const f of fields) {
    const v = source[f];
    if (v !== undefined && v !== null && v !== '') out[f] = v;
  }
  return out;
}

/** Per-lender consent (PUT /api/user/info/auth) and the agreement texts behind it. */
export class ConsentService {
  constructor(private readonly d: ConsentDeps) {}

  /**
   * The agreement text for a product's lender as a consent given through `adChannelCode` records it (naming
   * that channel's operator).
   */
  async agreementFor(
    productId: number,
    adChannelCode?: string | undefined,
  ): Promise<RenderedAgreement | null> {
    const row = await this.d.repo.findAgreementSource(productId);
    if (!row) return null;
    return renderInfoAgreement(await this.d.operators.forChannel(adChannelCode), row.lender, {
      productName: row.productName,
      aprBps: row.aprBps ?? 0,
      sharedFields: row.sharedFields,
    });
  }

  /** The stored text of one of the person's consents (by id, else their latest for the product, else latest). */
  async consentedText(
    userId: number,
    filter: { consentId?: number | undefined; productId?: number | undefined },
  ) {
    const row = await this.d.repo.findConsentedText(userId, filter);
    return row ?? null;
  }

  /**
   * Records consent to each of `productIds` (offers of the person's latest run, or of `matchId`),
   * writes the leads (outbox) in the same transaction, declines the offers not ticked and marks the
   * person authorised (submitStatus 10).
   */
  async consent(
    user: AuthUser,
    input: { productIds: string[]; matchId?: number | undefined },
    meta: ConsentMeta,
  ): Promise<{ consented: ConsentedItem[]; declined: string[] }> {
    const wanted = [...new Set(input.productIds.map(Number))];
    const mobile = user.mobileEnc ? decryptField(this.d.ring, user.mobileEnc) : null;

    const { slots, ...result } = await this.d.repo.transaction(async (repo, tx) => {
      const run = await repo.findRun(user.id, input.matchId);
      if (!run) throw appError('FORM_NOT_SUBMITTED');

      // Lock the run's open offers: a double tap consents once.
      const offers = await repo.lockOpenOffers(run.id);

      const open = new Map(offers.map((o) => [o.productId, o]));
      const missing = wanted.filter((id) => !open.has(id));
      if (missing.length > 0) {
        throw appError('OFFER_UNAVAILABLE', undefined, { productIds: missing.map(String) });
      }

      // The text names the operator of the channel the person matched through (the page they consent on).
      const operator = await this.d.operators
        .within(new OperatorRepository(tx))
        .forChannel(run.adChannelCode);
      const form = JSON.parse(decryptField(this.d.ring, run.profileEnc)) as ApplicationForm;
      // A run matched before the identity was verified may name someone else: no lead (issue 16.1).
      const mismatch = identityConflict(await this.d.identities.get(user.id, tx), form);
      if (mismatch.length > 0) throw identityMismatch(mismatch);
      const now = new Date();
      const items = wanted.map((id) => {
        const offer = open.get(id)!;
        const { product, partner } = offer;
        const agreement = renderInfoAgreement(operator, partner, {
          productName: product.productName,
          aprBps: product.aprBps ?? 0,
          sharedFields: product.sharedFields,
        });
        const mode: DeliveryMode = partner.deliveryModes[String(product.linkType)] ?? 'api';
        const url =
          mode === 'h5Redirect' && isAllowedPartnerUrl(product.targetUrl, partner.allowedHosts)
            ? product.targetUrl
            : null;
        return { id, offer, agreement, mode, url };
      });
      // A handful of multi-row statements, whatever the number of lenders.
      const texts = new Map(items.map((it) => [it.agreement.textHash, it.agreement]));
      await repo.insertAgreementTexts(
        [...texts.values()].map((a) => ({
          hash: a.textHash,
          agreementCode: a.id,
          version: a.version,
          title: a.title,
          content: a.content,
        })),
      );
      const inserted = await repo.insertConsents(
        items.map(({ id, offer, agreement }) => ({
          userId: user.id,
          offerId: offer.offerId,
          productId: id,
          partnerId: offer.partnerId,
          agreementCode: agreement.id,
          agreementVersion: agreement.version,
          textHash: agreement.textHash,
          fields: offer.product.sharedFields,
          ip: meta.ip ?? null,
          userAgent: meta.userAgent?.slice(0, 512) ?? null,
        })),
      );
      const consentOf = new Map(inserted.map((c) => [c.offerId, c.id]));
      await repo.insertLeads(
        items.map(({ id, offer, mode }) => ({
          consentId: consentOf.get(offer.offerId)!,
          userId: user.id,
          productId: id,
          partnerId: offer.partnerId,
          idempotencyKey: randomUUID(),
          mode,
          payloadEnc: encryptField(
            this.d.ring,
            JSON.stringify(consentedPayload(form, mobile, offer.product.sharedFields)),
          ),
          autoForm: run.source === 'auto',
          status: initialLeadStatus(mode, Boolean(offer.partner.apiEndpoint)),
          lastError: mode === 'api' && !offer.partner.apiEndpoint ? '机构未配置接收地址' : null,
          requestId: meta.requestId ?? null,
        })),
      );
      await repo.markOffersConsented(
        items.map((it) => it.offer.offerId),
        now,
      );
      const consented: ConsentedItem[] = items.map(({ id, offer, mode, url }) => ({
        productId: String(id),
        productName: offer.product.productName,
        lenderName: offer.partner.legalName,
        aprBps: offer.product.aprBps,
        consentId: consentOf.get(offer.offerId)!,
        mode,
        thirdpartyTargetUrl: url,
      }));

      const declinedIds = offers.map((o) => o.productId).filter((id) => !wanted.includes(id));
      const slots = await new CapsRepository(tx).closeOffers(user.id, 'declined', {
        runId: run.id,
        productIds: declinedIds,
      });
      await repo.markAuthorised(user.id);
      return { consented, declined: declinedIds.map(String), slots };
    });
    // Declined offers' cap slots go back after the commit (short statements, no long row locks).
    await this.d.caps.giveBackSlots(slots);
    if (result.consented.length)
      this.d.metrics?.consents.inc({ outcome: 'consented' }, result.consented.length);
    if (result.declined.length) this.d.metrics?.consents.inc({ outcome: 'declined' }, result.declined.length);
    return result;
  }
}
