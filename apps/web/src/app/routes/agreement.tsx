import { PageHeader } from '@/components/page-header';
import type { AgreementText } from '@/features/agreements';
import { useH5Config } from '@/features/channel/store';
import styles from './routes.module.css';

/** An agreement page: the full text with its version, effective date and the channel's operators. */
export function AgreementRoute({ text }: { text: AgreementText }) {
  const { footer } = useH5Config();
  return (
    <main className={styles.page}>
      <PageHeader title={text.title} fallback="/login" />
      <article className={styles.article}>
        <h1>《{text.title}》</h1>
        <p className={styles.articleMeta}>
          版本：{text.version}　生效日期：{text.effectiveDate}
        </p>
        {footer.length > 0 && (
          <p className={styles.articleMeta}>运营方：{footer.map((c) => c.companyName).join('、')}</p>
        )}
        <p>{text.intro}</p>
        {text.sections.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            {section.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </section>
        ))}
      </article>
    </main>
  );
}
