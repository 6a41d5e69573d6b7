import { Link } from 'react-router';
import type { NewsItem } from '../api/get-news';
import { type DayGroup, publishedText, timeOfDay } from '../dates';
import styles from './news.module.css';

/** One article in a list: category, title, summary and time; opens /audit-new/:id. */
export function NewsListItem({ item, withDate = false }: { item: NewsItem; withDate?: boolean }) {
  return (
    <li className={styles.item}>
      <Link className={styles.link} to={`/audit-new/${item.id}`}>
        <h3 className={styles.title}>{item.title}</h3>
        <p className={styles.summary}>{item.summary}</p>
        <p className={styles.meta}>
          <span className={styles.tag}>{item.category}</span>
          <time dateTime={item.publishedAt}>
            {withDate ? publishedText(item.publishedAt) : timeOfDay(item.publishedAt)}
          </time>
        </p>
      </Link>
    </li>
  );
}

/** Articles under their day headings ("今天", "昨天", dates). */
export function NewsDayList({ groups }: { groups: DayGroup<NewsItem>[] }) {
  return (
    <>
      {groups.map((group) => (
        <section key={group.day} aria-labelledby={`news-day-${group.day}`}>
          <h2 id={`news-day-${group.day}`} className={styles.day}>
            {group.label}
          </h2>
          <ul className={styles.list}>
            {group.items.map((item) => (
              <NewsListItem key={item.id} item={item} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

/** A plain list with dates (related articles). */
export function NewsPlainList({ items }: { items: NewsItem[] }) {
  return (
    <ul className={styles.list}>
      {items.map((item) => (
        <NewsListItem key={item.id} item={item} withDate />
      ))}
    </ul>
  );
}
