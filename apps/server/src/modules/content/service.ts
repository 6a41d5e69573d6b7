import type {
  AgreementData,
  AgreementVersionsData,
  NewsDetailData,
  NewsItem,
  NewsListData,
} from '@lm/shared/schemas/content';
import { isAgreementCode } from '@lm/shared/schemas/content';
import { textHash } from '../../lib/text-hash.ts';
import type { Operator } from '../operators/rules.ts';
import { operatorInfo } from '../operators/rules.ts';
import type { Operators } from '../operators/service.ts';
import { AGREEMENT_SEEDS, type AgreementSeed } from './agreements.ts';
import type { AgreementRow, ArticleListRow, ArticleRow, ContentRepository } from './repository.ts';
import {
  agreementPlainText,
  pageOffset,
  pickInForce,
  renderAgreementBody,
  templateVars,
  versionStates,
} from './rules.ts';

const RELATED_COUNT = 3;

function newsItem(row: ArticleListRow): NewsItem {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    category: row.category,
    publishedAt: row.publishedAt.toISOString(),
  };
}

export interface ContentDeps {
  /** The operator a channel's pages name (ADR 057). */
  operators: Pick<Operators, 'forChannel'>;
  /** DELETION_DEADLINE_WORKING_DAYS, printed in the privacy texts. */
  deletionWorkingDays: number;
}

/** An agreement as served, with the operator it names (for its ETag). */
export type RenderedDocument = AgreementData & { operatorTag: string };

/**
 * Agreements (versioned in agreement_documents, rendered with the operator of the channel the page was
 * reached through, ADR 057) and the daily news (articles). Stateless over the database: several instances
 * can serve it.
 */
export class ContentService {
  constructor(
    private readonly repo: ContentRepository,
    private readonly d: ContentDeps,
  ) {}

  /** Inserts the built-in agreement versions that are missing; never rewrites a stored version. */
  async ensureAgreements(seeds: readonly AgreementSeed[] = AGREEMENT_SEEDS): Promise<number> {
    if (seeds.length === 0) return 0;
    return this.repo.insertAgreementsIfMissing(seeds.map((s) => ({ ...s })));
  }

  private async versionsOf(code: string): Promise<AgreementRow[]> {
    return this.repo.agreementVersions(code);
  }

  private render(row: AgreementRow, op: Operator): AgreementData {
    const body = renderAgreementBody(row.body, templateVars(op, this.d.deletionWorkingDays));
    return {
      code: row.code,
      version: row.version,
      title: row.title,
      effectiveDate: body.effectiveDate,
      effectiveAt: row.effectiveAt.toISOString(),
      intro: body.intro,
      sections: body.sections,
      operator: operatorInfo(op),
    };
  }

  /** The operator of a channel's pages (the configured one without a code or a record). */
  operatorFor(adChannelCode: string | undefined): Promise<Operator> {
    return this.d.operators.forChannel(adChannelCode);
  }

  /**
   * One of the 13 agreements, naming the operator of `adChannelCode`: the version in force at `now`, or
   * `version` when given (a superseded version stays readable for audit; one not yet in force is not
   * served). null when unknown. `operatorTag` is a short hash of what the text names of the operator: the
   * ETag changes when the operator's record does.
   */
  async agreement(
    code: string,
    opts: { version?: string | undefined; now?: Date; adChannelCode?: string | undefined } = {},
  ): Promise<RenderedDocument | null> {
    if (!isAgreementCode(code)) return null;
    const now = opts.now ?? new Date();
    const rows = await this.versionsOf(code);
    const row = opts.version
      ? rows.find((r) => r.version === opts.version && r.effectiveAt.getTime() <= now.getTime())
      : pickInForce(rows, now);
    if (!row) return null;
    const op = await this.operatorFor(opts.adChannelCode);
    const doc = this.render(row, op);
    return { ...doc, operatorTag: textHash(JSON.stringify(doc.operator)).slice(0, 12) };
  }

  /** Every stored version of an agreement, newest first, with its state at `now`. null when unknown. */
  async agreementVersions(code: string, now = new Date()): Promise<AgreementVersionsData | null> {
    if (!isAgreementCode(code)) return null;
    const rows = await this.versionsOf(code);
    if (rows.length === 0) return null;
    const states = versionStates(rows, now);
    const current = states.find((s) => s.state === 'in_force')?.row ?? null;
    // The effective date has no placeholder of the operator's: the configured one fills the rest.
    const vars = templateVars(await this.operatorFor(undefined), this.d.deletionWorkingDays);
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

  /** The agreement as the protocol calls serve it (naming the channel's operator): one plain text with its SHA-256. */
  async protocolText(code: string, adChannelCode?: string | undefined, now = new Date()) {
    const doc = await this.agreement(code, { now, adChannelCode });
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
    const { total, rows } = await this.repo.listVisibleArticles(
      now,
      opts.category,
      pageSize,
      pageOffset(page, pageSize),
    );
    return { total, page, pageSize, list: rows.map(newsItem) };
  }

  /**
   * One published article by id or slug; counts the view in the same statement. null when missing, a
   * draft or scheduled for later.
   */
  async readArticle(idOrSlug: string, now = new Date()): Promise<NewsDetailData | null> {
    const key = /^\d{1,9}$/.test(idOrSlug) ? { id: Number(idOrSlug) } : { slug: idOrSlug };
    const row = await this.repo.readVisibleArticle(key, now);
    if (!row) return null;
    return { ...newsItem(row), body: row.body, views: row.views, related: await this.related(row, now) };
  }

  /** Other published articles: the same category first, then the newest. */
  private async related(row: ArticleRow, now: Date): Promise<NewsItem[]> {
    const same = await this.repo.sameCategory(row, now, RELATED_COUNT);
    if (same.length >= RELATED_COUNT) return same.map(newsItem);
    const others = await this.repo.otherCategories(row, now, RELATED_COUNT - same.length);
    return [...same, ...others].map(newsItem);
  }
}
