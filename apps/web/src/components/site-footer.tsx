import styles from './site-footer.module.css';

export interface LicensedCompany {
  companyName: string;
  filingNumber: string;
}

interface SiteFooterProps {
  /** The licensed-company record of the channel's operator (h5Config.footer, ADR 057). */
  companies?: readonly LicensedCompany[];
}

/** Compliance footer: the operating companies with their filing numbers, then the standard lines. */
export function SiteFooter({ companies = [] }: SiteFooterProps) {
  return (
    <footer className={styles.footer}>
      {companies.length > 0 && (
        <ul className={styles.companies}>
          {companies.map((c) => (
            <li key={`${c.companyName}-${c.filingNumber}`}>
              <span>{c.companyName}</span>
              {c.filingNumber && <span>{c.filingNumber}</span>}
            </li>
          ))}
        </ul>
      )}
      <p>本平台为贷款信息撮合服务平台，不直接发放贷款</p>
      <p>贷款额度、利率及放款时间以合作机构实际审批为准</p>
      <p>请理性借贷，根据个人能力合理消费，避免逾期</p>
    </footer>
  );
}
