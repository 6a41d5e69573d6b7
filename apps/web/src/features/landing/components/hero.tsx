import styles from './hero.module.css';
import { HeroIllustration } from './hero-illustration';

export function Hero() {
  return (
    <header className={styles.hero}>
      <div className={styles.text}>
        <p className={styles.eyebrow}>借款超市 · 多家机构一次比选</p>
        <h1 className={styles.title}>
          最高可借<strong>20</strong>万
        </h1>
        <p className={styles.subtitle}>一次申请 · 智能匹配 · 息费透明</p>
      </div>
      <HeroIllustration className={styles.art} />
    </header>
  );
}
