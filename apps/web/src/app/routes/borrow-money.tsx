import { AD_PLACEMENTS } from '@lm/shared/placements';
import Button from 'antd-mobile/es/components/button';
import { Link } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { useAppIndexIcons } from '@/features/landing/api/get-app-index-icons';
import { useColumnRecommend } from '@/features/products/api/get-column-recommend';
import { ProductSection } from '@/features/products/components/product-section';
import { ExposureProvider } from '@/features/products/use-exposure';
import { reportClick } from '@/features/reporting/client';
import { APR_LINE, MAX_AMOUNT_YUAN } from '@/features/skins/copy';
import { groupThousands } from '@/lib/number';
import styles from './routes.module.css';
import home from './tabs.module.css';
import { useProductActions } from './use-product-actions';

/** Shortcuts shown while the configured ones load, or when there are none. */
const ENTRIES = [
  { to: '/my/application-record', label: '申请记录', icon: 'M7 3h7l4 4v14H7zM10 12h5M10 16h5' },
  { to: '/audit-new', label: '每日资讯', icon: 'M4 5h16v14H4zM8 9h8M8 13h8M8 17h5' },
  { to: '/my/safe-center', label: '安全中心', icon: 'M12 3 5 6v5c0 4.5 3 8 7 10 4-2 7-5.5 7-10V6z' },
  { to: '/clarification-announcement', label: '防骗提醒', icon: 'M12 4 3 20h18zM12 10v4M12 17v.5' },
] as const;

/** The home shortcuts of the `appIndexIconList` page configuration (built-in ones until then). */
function Shortcuts() {
  const icons = useAppIndexIcons();
  const configured = icons.data ?? [];
  return (
    <nav className={home.entries} aria-label="快捷入口">
      {configured.length > 0
        ? configured.slice(0, 8).map((e) => (
            <Link
              key={e.key}
              to={e.path}
              className={home.entry}
              onClick={() => void reportClick('home_icon', { key: e.key })}
            >
              <img src={e.icon} alt="" aria-hidden="true" />
              <span>{e.title}</span>
            </Link>
          ))
        : ENTRIES.map((e) => (
            <Link key={e.to} to={e.to} className={home.entry}>
              <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path d={e.icon} />
              </svg>
              <span>{e.label}</span>
            </Link>
          ))}
    </nav>
  );
}

/**
 * `/borrow-money` (main layout, tab 首页): the apply banner, the configured shortcuts and the
 * recommended products by column (placement 5, home list) with exposure reporting.
 */
export function BorrowMoneyRoute() {
  const columns = useColumnRecommend(6);
  const { onApply, applyingId, goToForm } = useProductActions();
  const empty =
    !columns.isLoading && !columns.isError && (columns.data ?? []).every((c) => c.list.length === 0);
  return (
    <ExposureProvider>
      <main>
        <header className={styles.banner}>
          <p className={styles.bannerText}>最高可借(元)</p>
          <h1 className={styles.bannerTitle}>
            <strong>{groupThousands(MAX_AMOUNT_YUAN)}</strong>
          </h1>
          <p className={styles.bannerText}>{APR_LINE}</p>
          <Button block shape="rounded" size="large" className={styles.bannerAction} onClick={goToForm}>
            立即申请
          </Button>
        </header>
        <Shortcuts />
        {columns.isLoading || columns.isError ? (
          <ProductSection
            title="为您推荐"
            placement={AD_PLACEMENTS.HOME_LIST}
            products={undefined}
            isLoading={columns.isLoading}
            isError={columns.isError}
            onRetry={() => void columns.refetch()}
            onApply={onApply}
          />
        ) : (
          (columns.data ?? []).map((column) => (
            <ProductSection
              key={column.columnCode}
              title={column.columnName}
              placement={AD_PLACEMENTS.HOME_LIST}
              products={column.list}
              isLoading={false}
              isError={false}
              onRetry={() => void columns.refetch()}
              onApply={onApply}
              applyingId={applyingId}
            />
          ))
        )}
        {empty && (
          <section className={styles.panel}>
            <EmptyState
              compact
              title="暂无推荐产品"
              description="完善资料后，我们将根据您的资质为您匹配合适的机构"
            >
              <Button size="small" color="primary" shape="rounded" onClick={goToForm}>
                去完善资料
              </Button>
            </EmptyState>
          </section>
        )}
        <p className={styles.note}>
          本平台不直接放款，借款额度、利率以合作机构审批为准。请理性借贷，避免逾期。
          <Link to="/advertising">查看全部产品</Link>
        </p>
      </main>
    </ExposureProvider>
  );
}
