import Steps from 'antd-mobile/es/components/steps';
import styles from './apply.module.css';

const STEPS = ['额度评估', '身份认证', '证件上传', '审核结果'] as const;

/** The apply section's step bar. */
export function ApplySteps({ current }: { current: number }) {
  return (
    <Steps current={current} className={styles.steps}>
      {STEPS.map((s) => (
        <Steps.Step key={s} title={s} />
      ))}
    </Steps>
  );
}
