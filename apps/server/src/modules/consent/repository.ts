import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  agreementTexts,
  consents,
  leads,
  matchOffers,
  matchRuns,
  partners,
  products,
  users,
} from '../../db/schema.ts';

type NewAgreementText = typeof agreementTexts.$inferInsert;
type NewConsent = typeof consents.$inferInsert;
type NewLead = typeof leads.$inferInsert;

/** What an agreement names of the lender. */
const lenderColumns = {
  legalName: partners.legalName,
  licenceNumber: partners.licenceNumber,
  contactName: partners.contactName,
  contactPhone: partners.contactPhoneMasked,
};

/** Consents, the agreement texts behind them and the leads they write (the outbox). */
export class ConsentRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction; `repo` works on it, `tx` is the handle for other modules' repositories. */
  transaction<T>(fn: (repo: ConsentRepository, tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new ConsentRepository(tx as unknown as Db), tx as unknown as Db));
  }

  /** A product's name, APR and shared fields with its lender's details (what its agreement names). */
  async findAgreementSource(productId: number) {
    const [row] = await this.db
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
    return row;
  }

  /** The stored text of the person's latest consent (of `consentId`, and/or of `productId`, when given). */
  async findConsentedText(
    userId: number,
    filter: { consentId?: number | undefined; productId?: number | undefined },
  ) {
    const conds = [eq(consents.userId, userId)];
    if (filter.consentId !== undefined) conds.push(eq(consents.id, filter.consentId));
    if (filter.productId !== undefined) conds.push(eq(consents.productId, filter.productId));
    const [row] = await this.db
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
    return row;
  }

  /** The person's latest match run, or their run `runId` when given. */
  async findRun(userId: number, runId: number | undefined) {
    const runFilter = runId
      ? and(eq(matchRuns.userId, userId), eq(matchRuns.id, runId))
      : eq(matchRuns.userId, userId);
    const [run] = await this.db
      .select({
        id: matchRuns.id,
        profileEnc: matchRuns.profileEnc,
        source: matchRuns.source,
        adChannelCode: matchRuns.adChannelCode,
      })
      .from(matchRuns)
      .where(runFilter)
      .orderBy(desc(matchRuns.id))
      .limit(1);
    return run;
  }

  /** The run's open offers in rank order with their products and lenders, locked (FOR UPDATE OF match_offers). */
  async lockOpenOffers(runId: number) {
    return this.db
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
      .where(and(eq(matchOffers.runId, runId), eq(matchOffers.status, 'offered')))
      .orderBy(matchOffers.rank)
      .for('update', { of: matchOffers });
  }

  /** Stores agreement texts (by hash); a text already stored is kept as it is. */
  async insertAgreementTexts(texts: NewAgreementText[]): Promise<void> {
    await this.db.insert(agreementTexts).values(texts).onConflictDoNothing();
  }

  /** Stores consents; answers each one's id with its offer's. */
  async insertConsents(values: NewConsent[]) {
    return this.db.insert(consents).values(values).returning({ id: consents.id, offerId: consents.offerId });
  }

  async insertLeads(values: NewLead[]): Promise<void> {
    await this.db.insert(leads).values(values);
  }

  /** Marks offers consented. */
  async markOffersConsented(offerIds: number[], now: Date): Promise<void> {
    await this.db
      .update(matchOffers)
      .set({ status: 'consented', decidedAt: now })
      .where(inArray(matchOffers.id, offerIds));
  }

  /** Marks the person authorised (userInfoStatus 2). */
  async markAuthorised(userId: number): Promise<void> {
    await this.db.update(users).set({ userInfoStatus: 2 }).where(eq(users.id, userId));
  }
}
