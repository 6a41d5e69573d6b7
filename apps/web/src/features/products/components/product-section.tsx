import { AD_PLACEMENTS } from '@lm/shared/placements';
import type { ProductItem } from '@lm/shared/schemas/product';
import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';
import { ProductCard } from './product-card';
import styles from './products.module.css';

const SKELETON_KEYS = ['s1', 's2', 's3', 's4'] as const;

export interface ProductSectionProps {
  title: string;
  note?: string;
  placement: number;
  products: ProductItem[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onRetry(): void;
  onApply(product: ProductItem, placement: number): void;
  applyingId?: string | null;
  /** Shown when the list is empty (nothing shown at all when absent). */
  empty?: ReactNode;
  /** Number of placeholder cards while loading. */
  skeletons?: number;
  children?: ReactNode;
}

/** A titled list of product cards with its loading, error and empty states. */
export function ProductSection(props: ProductSectionProps) {
  const { title, note, placement, products, isLoading, isError, onRetry, onApply, applyingId } = props;
  let content: ReactNode;
  if (isLoading) {
    content = SKELETON_KEYS.slice(0, props.skeletons ?? 2).map((k) => (
      <div key={k} className={styles.skeleton} aria-hidden="true" />
    ));
  } else if (isError) {
    content = (
      <div className={styles.error} role="alert">
        产品加载失败，请检查网络后重试
        <div className={styles.retry}>
          <Button size="small" shape="rounded" onClick={onRetry}>
            重新加载
          </Button>
        </div>
      </div>
    );
  } else if (!products || products.length === 0) {
    if (!props.empty) return null;
    content = props.empty;
  } else {
    content = products.map((p) => (
      <ProductCard
        key={`${placement}-${p.id}`}
        product={p}
        placement={placement}
        onApply={onApply}
        applying={applyingId === p.id}
      />
    ));
  }
  return (
    <section className={styles.section} aria-label={title} aria-busy={isLoading}>
      <div className={styles.sectionHead}>
        <h2 className={styles.sectionTitle}>{title}</h2>
        {note && <span className={styles.sectionNote}>{note}</span>}
      </div>
      {content}
      {props.children}
    </section>
  );
}

/** The 「猜你喜欢」 section: the one randomly recommended product (placement 7). */
export function RandomRecommendSection({
  random,
  ...props
}: Pick<ProductSectionProps, 'onApply' | 'applyingId' | 'children'> & {
  random: {
    data?: ProductItem | null | undefined;
    isLoading: boolean;
    isError: boolean;
    refetch: () => unknown;
  };
}) {
  return (
    <ProductSection
      title="猜你喜欢"
      placement={AD_PLACEMENTS.RANDOM_RECOMMEND}
      products={random.data ? [random.data] : []}
      isLoading={random.isLoading}
      isError={random.isError}
      onRetry={() => void random.refetch()}
      skeletons={1}
      {...props}
    />
  );
}
