import { Button, Slider } from 'antd-mobile';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { APR_MAX, APR_MIN, monthlyPayment } from '@/features/skins/copy';
import styles from './apply.module.css';
import { ApplySteps } from './apply-steps';

const MIN = 1_000;
const MAX = 200_000;

/** `/apply_limit`: choose the amount (额度评估). */
export function ApplyLimitRoute() {
  const navigate = useNavigate();
  const [amount, setAmount] = useState(50_000);
  return (
    <main className={styles.page}>
      <PageHeader title="额度评估" fallback="/apply_home" />
      <ApplySteps current={0} />
      <section className={styles.panel}>
        <p className={styles.amountLabel}>期望借款金额(元)</p>
        <p className={styles.amount}>{amount.toLocaleString('en-US')}</p>
        <Slider
          min={MIN}
          max={MAX}
          step={1_000}
          value={amount}
          onChange={(v) => setAmount(Array.isArray(v) ? v[0]! : v)}
          aria-label="借款金额"
        />
        <div className={styles.range}>
          <span>{MIN.toLocaleString('en-US')}</span>
          <span>{MAX.toLocaleString('en-US')}</span>
        </div>
      </section>
      <section className={styles.panel}>
        <p className={styles.note}>
          按12期、年化利率{APR_MIN}%-{APR_MAX}%估算，每期约
          {monthlyPayment(amount, 12, APR_MIN).toLocaleString('en-US')}-
          {monthlyPayment(amount, 12, APR_MAX).toLocaleString('en-US')}元，实际以机构审批为准
        </p>
      </section>
      <div className={styles.actions}>
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          onClick={() => navigate(`/apply_auth_form?applyLimit=${amount}`)}
        >
          下一步
        </Button>
      </div>
    </main>
  );
}
