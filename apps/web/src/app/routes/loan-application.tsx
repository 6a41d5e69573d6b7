import Selector from 'antd-mobile/es/components/selector';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { PrimaryButton } from '@/components/primary-button';
import { APR_MAX, APR_MIN, monthlyPayment } from '@/features/skins/copy';
import { useH5Config } from '@/lib/channel/store';
import { groupThousands } from '@/lib/number';
import formStyles from '@/styles/forms.module.css';
import own from './loan-application.module.css';
import styles from './routes.module.css';

const AMOUNTS = [5_000, 10_000, 30_000, 50_000, 100_000, 200_000];
const TERMS = [3, 6, 12, 24, 36];
const yuan = (n: number) => groupThousands(n);

/**
 * `/loan-application`: choose an amount and a term, see the repayment range at the marketplace's APR
 * bounds, then go to the channel's form.
 */
export function LoanApplicationRoute() {
  const config = useH5Config();
  const navigate = useNavigate();
  const [amount, setAmount] = useState(50_000);
  const [term, setTerm] = useState(12);
  const low = monthlyPayment(amount, term, APR_MIN);
  const high = monthlyPayment(amount, term, APR_MAX);
  return (
    <main className={styles.page}>
      <PageHeader title="申请借款" />
      <section className={own.amount}>
        <p>借款金额(元)</p>
        <strong>{yuan(amount)}</strong>
        <span>
          年化利率{APR_MIN}%-{APR_MAX}%，以实际审批为准
        </span>
      </section>
      <section className={styles.panel}>
        <h2 className={styles.panelTitle}>借多少</h2>
        <Selector
          className={formStyles.selector}
          columns={3}
          value={[amount]}
          onChange={(v) => v[0] && setAmount(v[0])}
          options={AMOUNTS.map((a) => ({
            label: a >= 10_000 ? `${a / 10_000}万` : `${a / 1000}千`,
            value: a,
          }))}
        />
        <h2 className={styles.panelTitle} style={{ marginTop: 'calc(16 * var(--px))' }}>
          借多久
        </h2>
        <Selector
          className={formStyles.selector}
          columns={5}
          value={[term]}
          onChange={(v) => v[0] && setTerm(v[0])}
          options={TERMS.map((t) => ({ label: `${t}期`, value: t }))}
        />
      </section>
      <section className={styles.panel}>
        <h2 className={styles.panelTitle}>还款参考</h2>
        <dl className={own.plan}>
          <div>
            <dt>每期应还</dt>
            <dd>
              约{yuan(low)}-{yuan(high)}元
            </dd>
          </div>
          <div>
            <dt>总利息</dt>
            <dd>
              约{yuan(low * term - amount)}-{yuan(high * term - amount)}元
            </dd>
          </div>
        </dl>
        <p className={own.hint}>按等额本息估算，仅供参考；实际以合作机构审批及借款合同为准。</p>
      </section>
      <div className={styles.actions}>
        <PrimaryButton onClick={() => navigate(config.flowRoutes.form)}>下一步，完善资料</PrimaryButton>
      </div>
    </main>
  );
}
