import { and, count, desc, eq, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agreementDocuments, articles } from '../../db/schema.ts';

export type AgreementRow = typeof agreementDocuments.$inferSelect;
export type AgreementInsert = typeof agreementDocuments.$inferInsert;
export type ArticleRow = typeof articles.$inferSelect;
export type ArticleInsert = typeof articles.$inferInsert;
export type ArticleListRow = Pick<
  ArticleRow,
  'id' | 'slug' | 'title' | 'summary' | 'category' | 'publishedAt'
>;

const listColumns = {
  id: articles.id,
  slug: articles.slug,
  title: articles.title,
  summary: articles.summary,
  category: articles.category,
  publishedAt: articles.publishedAt,
};

/** Visible to readers: published and not scheduled for later. */
const visible = (now: Date) => and(eq(articles.status, 'published'), lte(articles.publishedAt, now));

/** Agreement versions (`agreement_documents`) and the daily news (`articles`). */
export class ContentRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the versions not stored yet (by code and version); answers how many were inserted. */
  async insertAgreementsIfMissing(rows: AgreementInsert[]): Promise<number> {
    const inserted = await this.db
      .insert(agreementDocuments)
      .values(rows)
      .onConflictDoNothing({ target: [agreementDocuments.code, agreementDocuments.version] })
      .returning({ id: agreementDocuments.id });
    return inserted.length;
  }

  /** Every stored version of an agreement (in no particular order). */
  agreementVersions(code: string): Promise<AgreementRow[]> {
    return this.db.select().from(agreementDocuments).where(eq(agreementDocuments.code, code));
  }

  /** One page of articles visible at `now` (optionally of one category), newest first, and how many there are. */
  async listVisibleArticles(
    now: Date,
    category: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ total: number; rows: ArticleListRow[] }> {
    const where = category ? and(visible(now), eq(articles.category, category)) : visible(now);
    const [totalRow] = await this.db.select({ n: count() }).from(articles).where(where);
    const rows = await this.db
      .select(listColumns)
      .from(articles)
      .where(where)
      .orderBy(desc(articles.publishedAt), desc(articles.id))
      .limit(limit)
      .offset(offset);
    return { total: Number(totalRow?.n ?? 0), rows };
  }

  /**
   * The article (by id, or by slug when `key` is a string) visible at `now`, its view counted in the
   * same statement; undefined when missing, a draft or scheduled for later.
   */
  async readVisibleArticle(
    key: { id: number } | { slug: string },
    now: Date,
  ): Promise<ArticleRow | undefined> {
    const match = 'id' in key ? eq(articles.id, key.id) : eq(articles.slug, key.slug);
    const [row] = await this.db
      .update(articles)
      .set({ views: sql`${articles.views} + 1` })
      .where(and(match, visible(now)))
      .returning();
    return row;
  }

  /** Up to `limit` other visible articles of the same category as `row`, newest first. */
  sameCategory(row: ArticleRow, now: Date, limit: number): Promise<ArticleListRow[]> {
    return this.db
      .select(listColumns)
      .from(articles)
      .where(and(visible(now), eq(articles.category, row.category), ne(articles.id, row.id)))
      .orderBy(desc(articles.publishedAt))
      .limit(limit);
  }

  /** Up to `limit` visible articles of other categories than `row`'s, newest first. */
  otherCategories(row: ArticleRow, now: Date, limit: number): Promise<ArticleListRow[]> {
    return this.db
      .select(listColumns)
      .from(articles)
      .where(and(visible(now), ne(articles.category, row.category)))
      .orderBy(desc(articles.publishedAt))
      .limit(limit);
  }

  /** Inserts the articles not stored yet (by slug). */
  async insertArticlesIfMissing(rows: ArticleInsert[]): Promise<void> {
    await this.db.insert(articles).values(rows).onConflictDoNothing({ target: articles.slug });
  }
}
