import { NEWS_CATEGORIES } from '../categories';
import styles from './news.module.css';

interface CategoryTabsProps {
  /** null: every category. */
  value: string | null;
  onChange(category: string | null): void;
}

/** "全部" then each category; the chosen one is pressed. */
export function CategoryTabs({ value, onChange }: CategoryTabsProps) {
  const options: (string | null)[] = [null, ...NEWS_CATEGORIES];
  return (
    <nav className={styles.tabs} aria-label="资讯分类">
      {options.map((category) => (
        <button
          key={category ?? 'all'}
          type="button"
          className={styles.tab}
          aria-pressed={value === category}
          onClick={() => onChange(category)}
        >
          {category ?? '全部'}
        </button>
      ))}
    </nav>
  );
}
