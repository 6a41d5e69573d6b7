import Button from 'antd-mobile/es/components/button';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import { type ReactNode, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { PageLoading } from '@/components/page-loading';
import { SiteFooter } from '@/components/site-footer';
import { useNewsList } from '@/features/news/api/get-news';
import { isNewsCategory } from '@/features/news/categories';
import { CategoryTabs } from '@/features/news/components/category-tabs';
import { NewsDayList } from '@/features/news/components/news-list';
import { groupByDay, todayHeading } from '@/features/news/dates';
import { useH5Config } from '@/lib/channel/store';
import styles from './audit-new.module.css';

/** `/audit-new`: the daily news, newest first, grouped by Shanghai day; `?category=` picks a category. */
export function AuditNewRoute() {
  const config = useH5Config();
  const [query, setQuery] = useSearchParams();
  const raw = query.get('category');
  const category = isNewsCategory(raw) ? raw : null;
  const news = useNewsList(category);
  const items = useMemo(() => news.data?.pages.flatMap((p) => p.list) ?? [], [news.data]);
  const groups = useMemo(() => groupByDay(items), [items]);

  const choose = (next: string | null) => {
    const params = new URLSearchParams(query);
    if (next) params.set('category', next);
    else params.delete('category');
    setQuery(params, { replace: true });
  };

  const loadMore = async () => {
    const result = await news.fetchNextPage();
    // InfiniteScroll shows its retry line when loadMore rejects.
    if (result.isError) throw result.error;
  };

  let body: ReactNode;
  if (news.isPending) {
    body = <PageLoading />;
  } else if (news.isError && items.length === 0) {
    body = (
      <EmptyState title="资讯加载失败" description="网络不稳定或服务繁忙，请稍后重试">
        <Button color="primary" shape="rounded" onClick={() => void news.refetch()}>
          重新加载
        </Button>
      </EmptyState>
    );
  } else if (items.length === 0) {
    body = (
      <EmptyState
        title="暂无资讯"
        description={
          category ? `“${category}”分类下还没有文章，看看其他分类吧` : '今日资讯正在整理中，请稍后再来看看'
        }
      >
        {category && (
          <Button color="primary" fill="outline" shape="rounded" onClick={() => choose(null)}>
            查看全部资讯
          </Button>
        )}
      </EmptyState>
    );
  } else {
    body = (
      <>
        <NewsDayList groups={groups} />
        <InfiniteScroll loadMore={loadMore} hasMore={news.hasNextPage}>
          {(hasMore, failed, retry) =>
            failed ? (
              <button type="button" className={styles.more} onClick={() => void retry()}>
                加载失败，点击重试
              </button>
            ) : hasMore ? (
              <span className={styles.more}>加载中…</span>
            ) : (
              <span className={styles.more}>没有更多了</span>
            )
          }
        </InfiniteScroll>
      </>
    );
  }

  return (
    <main className={styles.page}>
      <PageHeader title="每日资讯" />
      <header className={styles.head}>
        <p className={styles.date}>{todayHeading()}</p>
        <h1>每日资讯</h1>
        <p>信用知识 · 防骗提醒 · 理性借贷</p>
      </header>
      <CategoryTabs value={category} onChange={choose} />
      <section className={styles.feed} aria-label="资讯列表" aria-busy={news.isPending}>
        {body}
      </section>
      <SiteFooter companies={config.footer} />
    </main>
  );
}
