import type {
  AgreementData,
  AgreementVersionsData,
  NewsDetailData,
  NewsItem,
  NewsListData,
} from '@lm/shared/schemas/content';
import { isAgreementCode } from '@lm/shared/schemas/content';
import { and, count, desc, eq, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agreementDocuments, articles } from '../../db/schema.ts';
import { textHash } from '../../lib/text-hash.ts';
import { AGREEMENT_SEEDS, type AgreementSeed } from './agreements.ts';
import { ARTICLE_SEEDS, type ArticleSeed } from './articles.ts';
import {
  agreementPlainText,
  type OperatorConfig,
  operatorInfo,
  pageOffset,
  pickInForce,
  renderAgreementBody,
  shanghaiMidnight,
  templateVars,
  versionStates,
} from './rules.ts';

type AgreementRow = typeof agreementDocuments.$inferSelect;
type ArticleRow = typeof articles.$inferSelect;

const RELATED_COUNT = 3;

function newsItem(
  row: Pick<ArticleRow, 'id' | 'slug' | 'title' | 'summary' | 'category' | 'publishedAt'>,
): NewsItem {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    category: row.category,
    publishedAt: row.publishedAt.toISOString(),
  };
}

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

/**
 * Agreements (versioned in agreement_documents, rendered with the operator's configuration) and the daily
 * news (articles). Stateless over the database: several instances can serve it.
 */
export class ContentService {
  constructor(
    private readonly db: Db,
    private readonly config: OperatorConfig,
  ) {}

  /** Inserts the built-in agreement versions that are missing; never rewrites a stored version. */
  async ensureAgreements(seeds: readonly AgreementSeed[] = AGREEMENT_SEEDS): Promise<number> {
    if (seeds.length === 0) return 0;
    const inserted = await this.db
      .insert(agreementDocuments)
      .values(seeds.map((s) => ({ ...s })))
      .onConflictDoNothing({ target: [agreementDocuments.code, agreementDocuments.version] })
      .returning({ id: agreementDocuments.id });
    return inserted.length;
  }

  private async versionsOf(code: string): Promise<AgreementRow[]> {
    return this.db.select().from(agreementDocuments).where(eq(agreementDocuments.code, code));
  }

  private render(row: AgreementRow): AgreementData {
    const body = renderAgreementBody(row.body, templateVars(this.config));
    return {
      code: row.code,
      version: row.version,
      title: row.title,
      effectiveDate: body.effectiveDate,
      effectiveAt: row.effectiveAt.toISOString(),
      intro: body.intro,
      sections: body.sections,
      operator: operatorInfo(this.config),
    };
  }

  /**
   * One of the 13 agreements: the version in force at `now`, or `version` when given (a superseded
   * version stays readable for audit; one not yet in force is not served). null when unknown.
   */
  async agreement(code: string, opts: { version?: string | undefined; now?: Date } = {}) {
    if (!isAgreementCode(code)) return null;
    const now = opts.now ?? new Date();
    const rows = await this.versionsOf(code);
    const row = opts.version
      ? rows.find((r) => r.version === opts.version && r.effectiveAt.getTime() <= now.getTime())
      : pickInForce(rows, now);
    return row ? this.render(row) : null;
  }

  /** Every stored version of an agreement, newest first, with its state at `now`. null when unknown. */
  async agreementVersions(code: string, now = new Date()): Promise<AgreementVersionsData | null> {
    if (!isAgreementCode(code)) return null;
    const rows = await this.versionsOf(code);
    if (rows.length === 0) return null;
    const states = versionStates(rows, now);
    const current = states.find((s) => s.state === 'in_force')?.row ?? null;
    const vars = templateVars(this.config);
    return {
      code,
      title: (current ?? states[0]!.row).title,
      current: current?.version ?? null,
      list: states.map(({ row, state }) => ({
        version: row.version,
        title: row.title,
        effectiveDate: renderAgreementBody(row.body, vars).effectiveDate,
        effectiveAt: row.effectiveAt.toISOString(),
        createdAt: row.createdAt.toISOString(),
        state,
      })),
    };
  }

  /** The agreement as the protocol calls serve it: one plain text with its SHA-256. */
  async protocolText(code: string, now = new Date()) {
    const doc = await this.agreement(code, { now });
    if (!doc) return null;
    const content = agreementPlainText(doc.title, doc.version, doc);
    return { id: doc.code, title: doc.title, version: doc.version, content, textHash: textHash(content) };
  }

  /** Published articles, newest first (optionally of one category). */
  async listNews(
    page: number,
    pageSize: number,
    opts: { category?: string | undefined; now?: Date } = {},
  ): Promise<NewsListData> {
    const now = opts.now ?? new Date();
    const where = opts.category ? and(visible(now), eq(articles.category, opts.category)) : visible(now);
    const [totalRow] = await this.db.select({ n: count() }).from(articles).where(where);
    const rows = await this.db
      .select(listColumns)
      .from(articles)
      .where(where)
      .orderBy(desc(articles.publishedAt), desc(articles.id))
      .limit(pageSize)
      .offset(pageOffset(page, pageSize));
    return { total: Number(totalRow?.n ?? 0), page, pageSize, list: rows.map(newsItem) };
  }

  /**
   * One published article by id or slug; counts the view in the same statement. null when missing, a
   * draft or scheduled for later.
   */
  async readArticle(idOrSlug: string, now = new Date()): Promise<NewsDetailData | null> {
    const key = /^\d{1,9}$/.test(idOrSlug) ? eq(articles.id, Number(idOrSlug)) : eq(articles.slug, idOrSlug);
    const [row] = await this.db
      .update(articles)
      .set({ views: sql`${articles.views} + 1` })
      .where(and(key, visible(now)))
      .returning();
    if (!row) return null;
    return { ...newsItem(row), body: row.body, views: row.views, related: await this.related(row, now) };
  }

  /** Other published articles: the same category first, then the newest. */
  private async related(row: ArticleRow, now: Date): Promise<NewsItem[]> {
    const same = await this.db
      .select(listColumns)
      .from(articles)
      .where(and(visible(now), eq(articles.category, row.category), ne(articles.id, row.id)))
      .orderBy(desc(articles.publishedAt))
      .limit(RELATED_COUNT);
    if (same.length >= RELATED_COUNT) return same.map(newsItem);
    const others = await this.db
      .select(listColumns)
      .from(articles)
      .where(and(visible(now), ne(articles.category, row.category)))
      .orderBy(desc(articles.publishedAt))
      .limit(RELATED_COUNT - same.length);
    return [...same, ...others].map(newsItem);
  }
}

/** "2026-11-22 09:00" in Shanghai → the UTC instant. */
export function shanghaiTime(text: string): Date {
  const [day, time = '00:00'] = text.split(' ');
  const midnight = shanghaiMidnight(day!);
  const [h, m] = time.split(':').map(Number);
  return new Date(midnight.getTime() + ((h ?? 0) * 60 + (m ?? 0)) * 60_000);
}

/** Inserts the demo articles that are missing (by slug); runs at start outside production. */
export async function seedDemoArticles(db: Db, seeds: readonly ArticleSeed[] = ARTICLE_SEEDS): Promise<void> {
  if (seeds.length === 0) return;
  await db
    .insert(articles)
    .values(
      seeds.map((a) => ({
        slug: a.slug,
        title: a.title,
        summary: a.summary,
        category: a.category,
        body: a.body,
        status: 'published' as const,
        publishedAt: shanghaiTime(a.published),
      })),
    )
    .onConflictDoNothing({ target: articles.slug });
}
