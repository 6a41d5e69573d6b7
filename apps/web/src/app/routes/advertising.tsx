import { Button, CapsuleTabs } from 'antd-mobile';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { useH5Config } from '@/features/channel/store';
import styles from './routes.module.css';
import tabs from './tabs.module.css';

const CATEGORIES = [
  { key: 'all', title: '全部' },
  { key: 'large', title: '大额' },
  { key: 'low-rate', title: '低息' },
  { key: 'new', title: '新上线' },
] as const;

/** `/advertising` (main layout, tab 推荐): recommended products by category. */
export function AdvertisingRoute() {
  const config = useH5Config();
  const navigate = useNavigate();
  const [category, setCategory] = useState<string>('all');
  return (
    <main>
      <header className={tabs.head}>
        <h1>精选推荐</h1>
        <p>根据您的资质智能推荐，申请前请确认年化利率与借款合同</p>
      </header>
      <CapsuleTabs activeKey={category} onChange={setCategory} className={tabs.capsules}>
        {CATEGORIES.map((c) => (
          <CapsuleTabs.Tab key={c.key} title={c.title} />
        ))}
      </CapsuleTabs>
      <section className={styles.panel}>
        <EmptyState title="暂无推荐产品" description="当前暂无适合您的推荐，完善资料后可为您精准匹配">
          <Button color="primary" shape="rounded" onClick={() => navigate(config.flowRoutes.form)}>
            完善资料，匹配机构
          </Button>
        </EmptyState>
      </section>
      <p className={styles.note}>所有推荐机构均公示综合年化利率（不超过24%），放款前不收取任何费用。</p>
    </main>
  );
}
