import type { AgreementData } from '../api/get-agreement';
import styles from './agreement-document.module.css';

/** An agreement as served: title, version and effective date, introduction, sections, then the operator. */
export function AgreementDocument({ doc }: { doc: AgreementData }) {
  const { operator } = doc;
  return (
    <article className={styles.document} aria-labelledby="agreement-title">
      <h1 id="agreement-title" className={styles.title}>
        《{doc.title}》
      </h1>
      <p className={styles.meta}>
        版本：{doc.version}　生效日期：{doc.effectiveDate}
      </p>
      <p className={styles.intro}>{doc.intro}</p>
      {doc.sections.map((section) => (
        <section key={section.heading} className={styles.section}>
          <h2>{section.heading}</h2>
          {section.paragraphs.map((p, i) => (
            // Paragraphs are static text in a fixed order.
            // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no id and never reorder
            <p key={i}>{p}</p>
          ))}
        </section>
      ))}
      <dl className={styles.operator} aria-label="运营方信息">
        <dt>运营方</dt>
        <dd>{operator.name}</dd>
        <dt>地址</dt>
        <dd>{operator.address}</dd>
        <dt>备案号</dt>
        <dd>{operator.licence}</dd>
        <dt>客服电话</dt>
        <dd>
          <a href={`tel:${operator.servicePhone.replace(/[^\d+]/g, '')}`}>{operator.servicePhone}</a>
        </dd>
        <dt>个人信息</dt>
        <dd>
          <a href={`mailto:${operator.email}`}>{operator.email}</a>
        </dd>
      </dl>
    </article>
  );
}
