import Button from 'antd-mobile/es/components/button';
import Selector from 'antd-mobile/es/components/selector';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { RequireLogin } from '@/app/flow/require-login';
import { PageHeader } from '@/components/page-header';
import { fetchShownDraft } from '@/features/application-form/api/get-shown-draft';
import { APR_MAX, APR_MIN, monthlyPayment } from '@/features/skins/copy';
import { useChannelStore } from '@/lib/channel/store';
import { groupThousands } from '@/lib/number';
import { toast } from '@/lib/toast';
import { useTempSave } from './api/temp-save';
import styles from './apply.module.css';
import { ApplySteps } from './apply-steps';
import { LIMIT_CHOICES } from './limit-choices';

function LimitChoice() {
  const navigate = useNavigate();
  const code = useChannelStore((s) => s.adChannelCode);
  const [choice, setChoice] = useState<number | null>(null);
  const save = useTempSave();

  // The amount chosen before (the stored draft), if any.
  useEffect(() => {
    const controller = new AbortController();
    fetchShownDraft(controller.signal)
      .then((draft) => {
        if (typeof draft.applyLimit === 'number') setChoice((c) => c ?? draft.applyLimit ?? null);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, []);

  const selected = LIMIT_CHOICES.find((c) => c.value === choice);
  const next = () => {
    if (!selected) {
      toast.show('请选择您需要的借款额度');
      return;
    }
    save.mutate(
      { applyLimit: selected.value, ...(code ? { adChannelCode: code } : {}) },
      { onSuccess: () => navigate('/apply_auth_form') },
    );
  };

  return (
    <>
      <section className={styles.panel}>
        <p className={styles.amountLabel}>您需要的借款额度</p>
        <Selector
          className={styles.choices}
          columns={2}
          aria-label="借款额度"
          options={LIMIT_CHOICES.map((c) => ({ label: c.label, value: c.value }))}
          value={choice === null ? [] : [choice]}
          onChange={(v) => setChoice(v[0] ?? null)}
        />
      </section>
      {selected && (
        <section className={styles.panel}>
          <p className={styles.note}>
            以借{groupThousands(selected.sampleYuan)}元、12期、年化利率{APR_MIN}%-{APR_MAX}
            %估算，每期约
            {groupThousands(monthlyPayment(selected.sampleYuan, 12, APR_MIN))}-
            {groupThousands(monthlyPayment(selected.sampleYuan, 12, APR_MAX))}元，实际以机构审批为准
          </p>
        </section>
      )}
      <div className={styles.actions}>
        <Button block color="primary" shape="rounded" size="large" loading={save.isPending} onClick={next}>
          下一步
        </Button>
      </div>
    </>
  );
}

/** `/apply_limit`: choose the amount (额度评估), saved to the form draft (POST /api/user/info/tempSave). */
export function ApplyLimitRoute() {
  return (
    <main className={styles.page}>
      <PageHeader title="额度评估" fallback="/apply_home" />
      <ApplySteps current={0} />
      <RequireLogin>
        <LimitChoice />
      </RequireLogin>
    </main>
  );
}
