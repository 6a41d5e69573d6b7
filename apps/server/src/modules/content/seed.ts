import { shanghaiWallTime } from '@lm/shared/time';
import type { Db } from '../../db/client.ts';
import { ARTICLE_SEEDS, type ArticleSeed } from './articles.ts';
import { ContentRepository } from './repository.ts';

/** Inserts the demo articles that are missing (by slug); runs at start outside production. */
export async function seedDemoArticles(db: Db, seeds: readonly ArticleSeed[] = ARTICLE_SEEDS): Promise<void> {
  if (seeds.length === 0) return;
  await new ContentRepository(db).insertArticlesIfMissing(
    seeds.map((a) => ({
      slug: a.slug,
      title: a.title,
      summary: a.summary,
      category: a.category,
      body: a.body,
      status: 'published' as const,
      publishedAt: shanghaiWallTime(a.published),
    })),
  );
}
