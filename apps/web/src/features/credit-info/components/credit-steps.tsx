import Steps from 'antd-mobile/es/components/steps';
import { CREDIT_PROCESS_STEPS, type CreditProcessStep, creditProcessIndex } from '../steps';
import styles from './credit-steps.module.css';

/**
 * The credit process's stepper (the same steps on every page of it), at `current`; `null` while the
 * person's step is not known yet (no step marked rather than a wrong one).
 */
export function CreditSteps({
  current,
  className,
}: {
  current: CreditProcessStep | null;
  className?: string;
}) {
  return (
    <Steps
      current={current === null ? -1 : creditProcessIndex(current)}
      className={className ? `${styles.steps} ${className}` : styles.steps}
    >
      {CREDIT_PROCESS_STEPS.map((s) => (
        <Steps.Step key={s.key} title={s.title} />
      ))}
    </Steps>
  );
}
