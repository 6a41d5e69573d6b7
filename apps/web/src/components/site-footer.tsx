import styles from './site-footer.module.css';

export function SiteFooter() {
  return (
    <footer className={styles.footer}>
      <p>本平台为贷款信息撮合服务平台，不直接发放贷款</p>
      <p>贷款额度、利率及放款时间以合作机构实际审批为准</p>
      <p>请理性借贷，根据个人能力合理消费，避免逾期</p>
    </footer>
  );
}
