import { APPLICATION_FIELD_LABELS } from '@lm/shared/application-fields';
import Button from 'antd-mobile/es/components/button';
import { useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { PageLoading } from '@/components/page-loading';
import { PrimaryButton } from '@/components/primary-button';
import { useProductDetail } from '@/features/products/api/get-product-detail';
import { useRandomRecommend } from '@/features/products/api/get-random-recommend';
import { RandomRecommendSection } from '@/features/products/components/product-section';
import { formatAmountRange, formatApr, formatTerm, initialOf } from '@/features/products/format';
import { placementOf } from '@/features/products/placements';
import { ExposureProvider } from '@/features/products/use-exposure';
import { ApiError } from '@/lib/api-client';
import styles from './routes.module.css';
import { useProductActions } from './use-product-actions';
import own from './you-xin-detail.module.css';

/** What a lender receives, in words (the form fields of spec §3 and the phone). */
const FIELD_LABELS: Record<string, string> = {
  ...APPLICATION_FIELD_LABELS,
  realName: '姓名',
  mobile: '手机号',
  workCityCode: '工作城市',
};

function sharedFieldNames(fields: string[]): string[] {
  return [...new Set(fields.map((f) => FIELD_LABELS[f] ?? f))];
}

/**
 * `/you-xin-detail?productId=…&entranceType=…`: a listed product (GET /api/product/detail) — the
 * lender's legal name and licence, amount, APR, term, hours, what the lender receives — with 立即申请
 * (reported with the placement the person came from) and a random recommendation.
 */
export function YouXinDetailRoute() {
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const productId = query.get('productId')?.trim() || null;
  const placement = placementOf(query.get('entranceType'));
  const detail = useProductDetail(productId && /^\d{1,10}$/.test(productId) ? productId : null);
  const { onApply, applyingId } = useProductActions();
  const random = useRandomRecommend(productId ?? undefined, Boolean(detail.data));

  if (productId && detail.isLoading) return <PageLoading />;

  const product = detail.data;
  if (!product) {
    const missing = !productId || (detail.error instanceof ApiError && detail.error.code === 404);
    return (
      <main className={styles.page}>
        <PageHeader title="产品详情" fallback="/advertising" />
        <EmptyState
          title={missing || !detail.isError ? '产品不存在或已下架' : '产品信息加载失败'}
          description={missing || !detail.isError ? '看看其他正在受理的产品吧' : '请检查网络后重试'}
        >
          {detail.isError && !missing ? (
            <Button color="primary" shape="rounded" onClick={() => void detail.refetch()}>
              重新加载
            </Button>
          ) : (
            <Button
              color="primary"
              shape="rounded"
              onClick={() => navigate('/advertising', { replace: true })}
            >
              查看全部产品
            </Button>
          )}
        </EmptyState>
      </main>
    );
  }

  const name = product.yqlWholeProcessBumpVO?.partnerProductName || product.productName;
  return (
    <ExposureProvider>
      <main className={styles.page}>
        <PageHeader title="产品详情" fallback="/advertising" />
        <section className={own.head}>
          <div className={own.logo} aria-hidden="true">
            {initialOf(name)}
          </div>
          <div>
            <h1>{name}</h1>
            <p className={own.lender}>放款机构：{product.lenderLegalName}</p>
          </div>
        </section>
        <dl className={own.figures}>
          <div>
            <dt>可借额度</dt>
            <dd className={own.primary}>{formatAmountRange(product.amountMinFen, product.amountMaxFen)}</dd>
          </div>
          <div>
            <dt>综合年化利率</dt>
            <dd>{formatApr(product.aprBps).replace('年化 ', '')}</dd>
          </div>
          <div>
            <dt>借款期限</dt>
            <dd>{formatTerm(product.termMinMonths, product.termMaxMonths)}</dd>
          </div>
        </dl>
        <section className={styles.panel}>
          <h2 className={styles.panelTitle}>机构信息</h2>
          <dl className={own.rows}>
            <div>
              <dt>放款机构</dt>
              <dd>{product.lenderLegalName}</dd>
            </div>
            <div>
              <dt>经营许可</dt>
              <dd>{product.lenderLicenceNumber || '—'}</dd>
            </div>
            <div>
              <dt>受理时间</dt>
              <dd>
                {product.activeHours
                  ? `每日${product.activeHours.from}–${product.activeHours.to}`
                  : '全天受理'}
              </dd>
            </div>
          </dl>
        </section>
        {product.sharedFields.length > 0 && (
          <section className={styles.panel}>
            <h2 className={styles.panelTitle}>申请时向该机构提供的信息</h2>
            <ul className={own.fields}>
              {sharedFieldNames(product.sharedFields).map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            <p className={own.text} style={{ marginTop: 'calc(8 * var(--px))' }}>
              仅在您确认授权后提供，未经授权不会向任何机构提供您的信息。
            </p>
          </section>
        )}
        <section className={styles.panel}>
          <h2 className={styles.panelTitle}>费用说明</h2>
          <p className={own.text}>
            {formatApr(product.aprBps)
              .replace('年化 ', '综合年化利率（含利息及全部费用）')
              .replace('年化利率以审批为准', '综合年化利率以机构审批为准')}
            ，具体以审批结果和借款合同为准；放款前不收取任何费用。逾期将产生逾期费用并可能影响个人信用。
          </p>
        </section>
        <div className={styles.actions}>
          <PrimaryButton loading={applyingId === product.id} onClick={() => onApply(product, placement)}>
            立即申请
          </PrimaryButton>
        </div>
        <RandomRecommendSection random={random} onApply={onApply} applyingId={applyingId} />
      </main>
    </ExposureProvider>
  );
}
