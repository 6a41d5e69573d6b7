import { PageHeader } from '@/components/page-header';
import type { AgreementText } from '@/features/agreements/texts';
import styles from './routes.module.css';

/** An agreement page: the full text with its version and effective date. */
export function AgreementRoute({ text }: { text: AgreementText }) {
  return (
    <main className={styles.page}>
      <PageHeader title={text.title} fallback="/login" />
      <article className={styles.article}>
        <h1>《{text.title}》</h1>
        <p>
          版本：{text.version}　生效日期：{text.effectiveDate}
        </p>
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
