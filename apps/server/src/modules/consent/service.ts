import { randomUUID } from 'node:crypto';
import { identityConflict } from '@lm/shared/identity';
import type { ApplicationForm } from '@lm/shared/schemas/application';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  agreementTexts,
  consents,
  type DeliveryMode,
  type LeadStatus,
  leads,
  matchOffers,
  matchRuns,
  partners,
  products,
  users,
} from '../../db/schema.ts';
import { decryptField, encryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import type { Metrics } from '../../lib/metrics.ts';
import { isAllowedPartnerUrl } from '../../lib/partner-url.ts';
import type { AuthUser } from '../auth/service.ts';
import { closeOffers, giveBackSlots } from '../caps/slots.ts';
import { identityMismatch, VerifiedIdentities } from '../identity/verified.ts';
import { type RenderedAgreement, renderInfoAgreement } from './agreement.ts';

export interface ConsentDeps {
  db: Db;
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

const lenderColumns = {
  legalName: partners.legalName,
  licenceNumber: partners.licenceNumber,
  contactName: partners.contactName,
  contactPhone: partners.contactPhoneMasked,
};

/** Per-lender consent (PUT /api/user/info/auth) and the agreement texts behind it. */
export class ConsentService {
  private readonly identities: VerifiedIdentities;

  constructor(private readonly d: ConsentDeps) {
    this.identities = new VerifiedIdentities(d);
  }

  /** The agreement text for a product's lender (what a consent to it records). */
  async agreementFor(productId: number): Promise<RenderedAgreement | null> {
    const [row] = await this.d.db
      .select({
        lender: lenderColumns,
        productName: products.productName,
        aprBps: products.aprBps,
        sharedFields: products.sharedFields,
      })
      .from(products)
      .innerJoin(partners, eq(products.partnerId, partners.id))
      .where(eq(products.id, productId))
      .limit(1);
    if (!row) return null;
    return renderInfoAgreement(row.lender, {
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
    const conds = [eq(consents.userId, userId)];
    if (filter.consentId !== undefined) conds.push(eq(consents.id, filter.consentId));
    if (filter.productId !== undefined) conds.push(eq(consents.productId, filter.productId));
    const [row] = await this.d.db
      .select({
        id: agreementTexts.agreementCode,
        title: agreementTexts.title,
        version: agreementTexts.version,
        content: agreementTexts.content,
        textHash: agreementTexts.hash,
        consentedAt: consents.createdAt,
      })
      .from(consents)
      .innerJoin(agreementTexts, eq(consents.textHash, agreementTexts.hash))
      .where(and(...conds))
      .orderBy(desc(consents.id))
      .limit(1);
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

    const { slots, ...result } = await this.d.db.transaction(async (tx) => {
      const txDb = tx as unknown as Db;
      const runFilter = input.matchId
        ? and(eq(matchRuns.userId, user.id), eq(matchRuns.id, input.matchId))
        : eq(matchRuns.userId, user.id);
      const [run] = await tx
        .select({ id: matchRuns.id, profileEnc: matchRuns.profileEnc, source: matchRuns.source })
        .from(matchRuns)
        .where(runFilter)
        .orderBy(desc(matchRuns.id))
        .limit(1);
      if (!run) throw appError('FORM_NOT_SUBMITTED');

      // Lock the run's open offers: a double tap consents once.
      const offers = await tx
        .select({
          offerId: matchOffers.id,
          productId: matchOffers.productId,
          partnerId: matchOffers.partnerId,
          product: {
            productName: products.productName,
            linkType: products.linkType,
            aprBps: products.aprBps,
            sharedFields: products.sharedFields,
            targetUrl: products.targetUrl,
          },
          partner: {
            ...lenderColumns,
            apiEndpoint: partners.apiEndpoint,
            allowedHosts: partners.allowedHosts,
            deliveryModes: partners.deliveryModes,
          },
        })
        .from(matchOffers)
        .innerJoin(products, eq(matchOffers.productId, products.id))
        .innerJoin(partners, eq(matchOffers.partnerId, partners.id))
        .where(and(eq(matchOffers.runId, run.id), eq(matchOffers.status, 'offered')))
        .orderBy(matchOffers.rank)
        .for('update', { of: matchOffers });

      const open = new Map(offers.map((o) => [o.productId, o]));
      const missing = wanted.filter((id) => !open.has(id));
      if (missing.length > 0) {
        throw appError('OFFER_UNAVAILABLE', undefined, { productIds: missing.map(String) });
      }

      const form = JSON.parse(decryptField(this.d.ring, run.profileEnc)) as ApplicationForm;
      // A run matched before the identity was verified may name someone else: no lead (issue 16.1).
      const mismatch = identityConflict(await this.identities.get(user.id, txDb), form);
      if (mismatch.length > 0) throw identityMismatch(mismatch);
      const now = new Date();
      const items = wanted.map((id) => {
        const offer = open.get(id)!;
        const { product, partner } = offer;
        const agreement = renderInfoAgreement(partner, {
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
      await tx
        .insert(agreementTexts)
        .values(
          [...texts.values()].map((a) => ({
            hash: a.textHash,
            agreementCode: a.id,
            version: a.version,
            title: a.title,
            content: a.content,
          })),
        )
        .onConflictDoNothing();
      const inserted = await tx
        .insert(consents)
        .values(
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
        )
        .returning({ id: consents.id, offerId: consents.offerId });
      const consentOf = new Map(inserted.map((c) => [c.offerId, c.id]));
      await tx.insert(leads).values(
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
      await tx
        .update(matchOffers)
        .set({ status: 'consented', decidedAt: now })
        .where(
          inArray(
            matchOffers.id,
            items.map((it) => it.offer.offerId),
          ),
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
      const slots = await closeOffers(txDb, user.id, 'declined', {
        runId: run.id,
        productIds: declinedIds,
      });
      await tx.update(users).set({ userInfoStatus: 2 }).where(eq(users.id, user.id));
      return { consented, declined: declinedIds.map(String), slots };
    });
    // Declined offers' cap slots go back after the commit (short statements, no long row locks).
    await giveBackSlots(this.d.db, slots);
    if (result.consented.length)
      this.d.metrics?.consents.inc({ outcome: 'consented' }, result.consented.length);
    if (result.declined.length) this.d.metrics?.consents.inc({ outcome: 'declined' }, result.declined.length);
    return result;
  }
}
