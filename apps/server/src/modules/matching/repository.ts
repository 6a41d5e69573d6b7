import { and, eq, gte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { consents, matchOffers, matchRuns, partners, products, users } from '../../db/schema.ts';

type NewRun = typeof matchRuns.$inferInsert;
type NewOffer = typeof matchOffers.$inferInsert;

/** Match runs and their offers (match_runs, match_offers), and what a match reads of the catalogue. */
export class MatchRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction; `repo` works on it. */
  transaction<T>(fn: (repo: MatchRepository, tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new MatchRepository(tx as unknown as Db), tx as unknown as Db));
  }

  /** Published products of active partners with what an offer needs of the partner, by product id. */
  async listPublished() {
    return this.db
      .select({
        product: products,
        partner: {
          id: partners.id,
          code: partners.code,
          legalName: partners.legalName,
          licenceNumber: partners.licenceNumber,
          contactName: partners.contactName,
          contactPhoneMasked: partners.contactPhoneMasked,
          allowedHosts: partners.allowedHosts,
          deliveryModes: partners.deliveryModes,
          dupCheckEndpoint: partners.dupCheckEndpoint,
          signingSecretEnc: partners.signingSecretEnc,
        },
      })
      .from(products)
      .innerJoin(partners, eq(products.partnerId, partners.id))
      .where(and(eq(products.status, 'published'), eq(partners.status, 'active')))
      .orderBy(products.id);
  }

  /** The person's consents since `since` (product, partner, when). */
  async consentsSince(userId: number, since: Date) {
    return this.db
      .select({ productId: consents.productId, partnerId: consents.partnerId, at: consents.createdAt })
      .from(consents)
      .where(and(eq(consents.userId, userId), gte(consents.createdAt, since)));
  }

  /** The person's open offers (of any run). */
  async openOffersOfUser(userId: number) {
    return this.db
      .select({
        partnerId: matchOffers.partnerId,
        productId: matchOffers.productId,
        capDay: matchOffers.capDay,
      })
      .from(matchOffers)
      .where(and(eq(matchOffers.userId, userId), eq(matchOffers.status, 'offered')));
  }

  /** Stores a run; answers its id. */
  async insertRun(values: NewRun): Promise<number> {
    const [run] = await this.db.insert(matchRuns).values(values).returning({ id: matchRuns.id });
    return run!.id;
  }

  async insertOffers(values: NewOffer[]): Promise<void> {
    await this.db.insert(matchOffers).values(values);
  }

  /** Marks the person matched (userInfoStatus 1). */
  async markMatched(userId: number): Promise<void> {
    await this.db.update(users).set({ userInfoStatus: 1 }).where(eq(users.id, userId));
  }

  /** The run `runId` when it is the person's: its applyStatus and exclusions. */
  async findRunOf(userId: number, runId: number) {
    const [run] = await this.db
      .select({ applyStatus: matchRuns.applyStatus, excluded: matchRuns.excluded })
      .from(matchRuns)
      .where(and(eq(matchRuns.id, runId), eq(matchRuns.userId, userId)))
      .limit(1);
    return run;
  }

  /** The run's open offers' products, in rank order. */
  async openOffersOfRun(runId: number) {
    return this.db
      .select({ productId: matchOffers.productId })
      .from(matchOffers)
      .where(and(eq(matchOffers.runId, runId), eq(matchOffers.status, 'offered')))
      .orderBy(matchOffers.rank);
  }
}
