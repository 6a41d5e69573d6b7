import { Steps } from 'antd-mobile';
import { CREDIT_PROCESS_STEPS, type CreditProcessStep, creditProcessIndex } from '../steps';
import styles from './credit-steps.module.css';

/** The credit process's stepper (the same steps on every page of it), at `current`. */
export function CreditSteps({ current, className }: { current: CreditProcessStep; className?: string }) {
  return (
    <Steps
      current={creditProcessIndex(current)}
      className={className ? `${styles.steps} ${className}` : styles.steps}
    >
      {CREDIT_PROCESS_STEPS.map((s) => (
        <Steps.Step key={s.key} title={s.title} />
      ))}
    </Steps>
  );
}
