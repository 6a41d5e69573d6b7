import styles from './highlights.module.css';

const ITEMS = [
  { title: '额度高', text: '最高20万' },
  { title: '审批快', text: '线上极速审核' },
  { title: '选择多', text: '多家持牌机构' },
] as const;

export function Highlights() {
  return (
    <ul className={styles.list}>
      {ITEMS.map((item) => (
        <li key={item.title} className={styles.item}>
          <strong>{item.title}</strong>
          <span>{item.text}</span>
        </li>
      ))}
    </ul>
  );
}
