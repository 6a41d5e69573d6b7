import type { ReactNode } from 'react';
import styles from './landing.module.css';

interface RiskNoticeProps {
  /** A link to the clarification announcement (the app passes a router Link). */
  announcementLink?: ReactNode;
}

/** The risk notice every landing carries (lending risk, no upfront fees, anti-fraud). */
export function RiskNotice({ announcementLink }: RiskNoticeProps) {
  return (
    <section className={styles.notice} aria-labelledby="risk-notice-title">
      <h2 id="risk-notice-title">风险提示</h2>
      <p>
        贷款有风险，借款需谨慎。本平台为贷款信息撮合服务平台，不直接发放贷款；额度、利率、期限及放款时间以合作机构实际审批为准。
      </p>
      <p>
        本平台及合作机构在放款前不收取任何费用，凡以“保证金”“解冻费”“包装费”等名义要求转账的均为诈骗，请勿轻信。
        {announcementLink}
      </p>
      <p>请根据个人实际需要和还款能力理性借贷，避免过度负债，珍惜个人信用。</p>
    </section>
  );
}
