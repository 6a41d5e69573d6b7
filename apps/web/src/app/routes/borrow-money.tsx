import { Button } from 'antd-mobile';
import { Link, useNavigate } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { useH5Config } from '@/features/channel/store';
import styles from './routes.module.css';
import home from './tabs.module.css';

const ENTRIES = [
  { to: '/my/application-record', label: '申请记录', icon: 'M7 3h7l4 4v14H7zM10 12h5M10 16h5' },
  { to: '/audit-new', label: '每日资讯', icon: 'M4 5h16v14H4zM8 9h8M8 13h8M8 17h5' },
  { to: '/my/safe-center', label: '安全中心', icon: 'M12 3 5 6v5c0 4.5 3 8 7 10 4-2 7-5.5 7-10V6z' },
  { to: '/clarification-announcement', label: '防骗提醒', icon: 'M12 4 3 20h18zM12 10v4M12 17v.5' },
] as const;

/** `/borrow-money` (main layout, tab 首页): the apply banner, shortcuts and recommendations. */
export function BorrowMoneyRoute() {
  const config = useH5Config();
  const navigate = useNavigate();
  return (
    <main>
      <header className={styles.banner}>
        <p className={styles.bannerText}>最高可借(元)</p>
        <h1 className={styles.bannerTitle}>
          <strong>200,000</strong>
        </h1>
        <p className={styles.bannerText}>年化利率7.2%-24%，以实际审批为准</p>
        <Button
          block
          shape="rounded"
          size="large"
          className={styles.bannerAction}
          onClick={() => navigate(config.flowRoutes.form)}
        >
          立即申请
        </Button>
      </header>
      <nav className={home.entries} aria-label="快捷入口">
        {ENTRIES.map((e) => (
          <Link key={e.to} to={e.to} className={home.entry}>
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d={e.icon} />
            </svg>
            <span>{e.label}</span>
          </Link>
        ))}
      </nav>
      <section className={styles.panel} aria-labelledby="recommend-title">
        <h2 id="recommend-title" className={styles.panelTitle}>
          为您推荐
        </h2>
        <EmptyState
          compact
          title="暂无推荐产品"
          description="完善资料后，我们将根据您的资质为您匹配合适的机构"
        >
          <Button
            size="small"
            color="primary"
            shape="rounded"
            onClick={() => navigate(config.flowRoutes.form)}
          >
            去完善资料
          </Button>
        </EmptyState>
      </section>
      <p className={styles.note}>
        本平台不直接放款，借款额度、利率以合作机构审批为准。请理性借贷，避免逾期。
      </p>
    </main>
  );
}
