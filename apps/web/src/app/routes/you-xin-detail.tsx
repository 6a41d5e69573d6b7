import { Button } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useH5Config } from '@/features/channel/store';
import styles from './routes.module.css';
import own from './you-xin-detail.module.css';

/**
 * `/you-xin-detail?productName=…`: a product's detail page — what it is, who can apply, what is needed
 * and the rate disclosure — with the way to apply through the channel's form.
 */
export function YouXinDetailRoute() {
  const config = useH5Config();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const productName = query.get('productName')?.trim() || '优信借款';
  return (
    <main className={styles.page}>
      <PageHeader title="产品详情" fallback="/borrow-money" />
      <section className={own.head}>
        <div className={own.logo} aria-hidden="true">
          {productName.slice(0, 1)}
        </div>
        <div>
          <h1>{productName}</h1>
          <p>
            最高可借<strong>20万</strong> · 年化利率7.2%-24%
          </p>
        </div>
      </section>
      <section className={styles.panel}>
        <h2 className={styles.panelTitle}>申请条件</h2>
        <ul className={styles.panelList}>
          <li>年满22周岁，具有完全民事行为能力的中国大陆居民</li>
          <li>本人实名认证的手机号</li>
          <li>非在校学生，有稳定的收入来源</li>
        </ul>
      </section>
      <section className={styles.panel}>
        <h2 className={styles.panelTitle}>所需材料</h2>
        <ul className={styles.panelList}>
          <li>本人有效的二代居民身份证</li>
          <li>本人名下的储蓄卡（用于放款与还款）</li>
        </ul>
      </section>
      <section className={styles.panel}>
        <h2 className={styles.panelTitle}>费用说明</h2>
        <p className={own.text}>
          综合年化利率（含利息及全部费用）7.2%-24%，具体以审批结果和借款合同为准；放款前不收取任何费用。逾期将产生逾期费用并可能影响个人信用。
        </p>
      </section>
      <div className={styles.actions}>
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          onClick={() => navigate(config.flowRoutes.form)}
        >
          立即申请
        </Button>
      </div>
    </main>
  );
}
