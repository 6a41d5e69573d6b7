import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { PageLoading } from '@/components/page-loading';
import { SiteFooter } from '@/components/site-footer';
import { useNewsArticle } from '@/features/news/api/get-news-article';
import { NewsPlainList } from '@/features/news/components/news-list';
import { publishedText } from '@/features/news/dates';
import { ApiError } from '@/lib/api-client';
import { useH5Config } from '@/lib/channel/store';
import styles from './audit-new.module.css';

const ID = /^[a-z0-9-]{1,80}$/;

/** `/audit-new/:id`: one article (id or slug) with related reading; unknown ids get "not found". */
export function AuditNewDetailRoute() {
  const navigate = useNavigate();
  const config = useH5Config();
  const { id = '' } = useParams();
  const valid = ID.test(id);
  const article = useNewsArticle(id, { enabled: valid });
  const missing =
    !valid || (article.isError && article.error instanceof ApiError && article.error.code === 404);

  let content: ReactNode;
  if (missing) {
    content = (
      <EmptyState title="资讯不存在或已下线" description="您可以返回列表查看其他资讯">
        <Button color="primary" shape="rounded" onClick={() => navigate('/audit-new', { replace: true })}>
          返回资讯列表
        </Button>
      </EmptyState>
    );
  } else if (article.isPending) {
    content = <PageLoading />;
  } else if (article.isError) {
    content = (
      <EmptyState title="资讯加载失败" description="网络不稳定或服务繁忙，请稍后重试">
        <Button color="primary" shape="rounded" onClick={() => void article.refetch()}>
          重新加载
        </Button>
      </EmptyState>
    );
  } else {
    const a = article.data;
    content = (
      <>
        <article className={styles.article}>
          <Link className={styles.category} to={`/audit-new?category=${encodeURIComponent(a.category)}`}>
            {a.category}
          </Link>
          <h1>{a.title}</h1>
          <p className={styles.articleMeta}>
            <time dateTime={a.publishedAt}>{publishedText(a.publishedAt)}</time>
            <span>阅读 {a.views}</span>
          </p>
          <p className={styles.lead}>{a.summary}</p>
          {a.body.map((paragraph, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no id and never reorder
            <p key={i}>{paragraph}</p>
          ))}
          <p className={styles.notice}>
            本文仅为金融知识普及，不构成任何借款建议。借款额度、利率以持牌机构审批为准，请理性借贷。
          </p>
        </article>
        {a.related.length > 0 && (
          <section aria-labelledby="related-title">
            <h2 id="related-title" className={styles.relatedTitle}>
              相关阅读
            </h2>
            <NewsPlainList items={a.related} />
          </section>
        )}
      </>
    );
  }

  return (
    <main className={styles.page}>
      <PageHeader title="资讯详情" fallback="/audit-new" />
      {content}
      <SiteFooter companies={config.footer} />
    </main>
  );
}
