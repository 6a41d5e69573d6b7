import { AD_PLACEMENTS } from '@lm/shared/placements';
import Button from 'antd-mobile/es/components/button';
import CapsuleTabs from 'antd-mobile/es/components/capsule-tabs';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import { useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { type ProductListFilters, useProductList } from '@/features/products/api/get-product-list';
import { useRandomRecommend } from '@/features/products/api/get-random-recommend';
import { useTopRecommend } from '@/features/products/api/get-top-recommend';
import { ProductSection, RandomRecommendSection } from '@/features/products/components/product-section';
import { ExposureProvider } from '@/features/products/use-exposure';
import styles from './routes.module.css';
import tabs from './tabs.module.css';
import { useProductActions } from './use-product-actions';

const CATEGORIES: readonly { key: string; title: string; filters: ProductListFilters }[] = [
  { key: 'all', title: '全部', filters: {} },
  { key: 'ka', title: '持牌机构', filters: { companyType: 'KAInstitution' } },
  { key: 'region', title: '地方机构', filters: { companyType: 'RegionInstitution' } },
  { key: 'small', title: '小额应急', filters: { amount: 5_000 } },
  { key: 'large', title: '大额', filters: { amount: 100_000 } },
];

function ProductListSection({
  filters,
  onApply,
  applyingId,
  goToForm,
}: {
  filters: ProductListFilters;
  onApply: ReturnType<typeof useProductActions>['onApply'];
  applyingId: string | null;
  goToForm: () => void;
}) {
  const list = useProductList(filters);
  const products = list.data?.pages.flatMap((p) => p.list);
  const total = list.data?.pages[0]?.total;
  return (
    <ProductSection
      title="全部产品"
      note={total !== undefined ? `共${total}款` : undefined}
      placement={AD_PLACEMENTS.PRODUCT_LIST}
      products={products}
      isLoading={list.isLoading}
      isError={list.isError}
      onRetry={() => void list.refetch()}
      onApply={onApply}
      applyingId={applyingId}
      skeletons={3}
      empty={
        <EmptyState compact title="暂无符合条件的产品" description="换个分类看看，或完善资料后为您精准匹配">
          <Button size="small" color="primary" shape="rounded" onClick={goToForm}>
            完善资料，匹配机构
          </Button>
        </EmptyState>
      }
    >
      {products && products.length > 0 && (
        <div className={tabs.loadMore}>
          <InfiniteScroll
            hasMore={Boolean(list.hasNextPage)}
            loadMore={async () => {
              await list.fetchNextPage();
            }}
          >
            {list.hasNextPage ? '加载中…' : '已经到底了'}
          </InfiniteScroll>
        </div>
      )}
    </ProductSection>
  );
}

/**
 * `/advertising` (main layout, tab 推荐): top recommendations (placement 4), a random pick
 * (placement 7) and the whole catalogue by category (placement 6); every card shows the lender's
 * legal name and APR and is reported once per placement when seen.
 */
export function AdvertisingRoute() {
  const [category, setCategory] = useState<string>('all');
  const { onApply, applyingId, goToForm } = useProductActions();
  const top = useTopRecommend(3);
  const random = useRandomRecommend(top.data?.[0]?.id, !top.isLoading);
  const filters = CATEGORIES.find((c) => c.key === category)?.filters ?? {};
  return (
    <ExposureProvider>
      <main>
        <header className={tabs.head}>
          <h1>精选推荐</h1>
          <p>按机构综合排序，申请前请确认年化利率与借款合同</p>
        </header>
        <ProductSection
          title="为您精选"
          note="综合年化利率公示"
          placement={AD_PLACEMENTS.TOP_RECOMMEND}
          products={top.data}
          isLoading={top.isLoading}
          isError={top.isError}
          onRetry={() => void top.refetch()}
          onApply={onApply}
          applyingId={applyingId}
        />
        <RandomRecommendSection random={random} onApply={onApply} applyingId={applyingId}>
          {random.data && (
            <div className={tabs.toolbar}>
              <Button
                size="mini"
                fill="none"
                loading={random.isFetching}
                onClick={() => void random.refetch()}
              >
                换一个
              </Button>
            </div>
          )}
        </RandomRecommendSection>
        <CapsuleTabs activeKey={category} onChange={setCategory} className={tabs.capsules}>
          {CATEGORIES.map((c) => (
            <CapsuleTabs.Tab key={c.key} title={c.title} />
          ))}
        </CapsuleTabs>
        <ProductListSection
          key={category}
          filters={filters}
          onApply={onApply}
          applyingId={applyingId}
          goToForm={goToForm}
        />
        <p className={styles.note}>所有机构均公示综合年化利率（不超过24%），放款前不收取任何费用。</p>
      </main>
    </ExposureProvider>
  );
}
