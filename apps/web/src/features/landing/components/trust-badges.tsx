import styles from './landing.module.css';

type BadgeIcon = 'shield' | 'lock' | 'fee' | 'doc';

const BADGES: readonly { icon: BadgeIcon; title: string; text: string }[] = [
  { icon: 'shield', title: '持牌机构', text: '对接持牌机构' },
  { icon: 'lock', title: '加密传输', text: '信息全程加密' },
  { icon: 'fee', title: '零前期费用', text: '放款前不收费' },
  { icon: 'doc', title: '息费透明', text: '年化利率明示' },
];

function Icon({ name }: { name: BadgeIcon }) {
  const s = {
    fill: 'none',
    stroke: 'var(--app-primary)',
    strokeWidth: 1.8,
    strokeLinecap: 'round',
    strokeLinejoin: 'round',
  } as const;
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {name === 'shield' && (
        <path d="M12 3 5 6v5c0 4.5 3 8 7 10 4-2 7-5.5 7-10V6l-7-3Zm-3 9 2 2 4-4" style={s} />
      )}
      {name === 'lock' && (
        <>
          <rect x="5" y="10" width="14" height="10" rx="2" style={s} />
          <path d="M8 10V7a4 4 0 0 1 8 0v3M12 14v2" style={s} />
        </>
      )}
      {name === 'fee' && (
        <>
          <circle cx="12" cy="12" r="8.5" style={s} />
          <path d="M9 8l3 4 3-4M9 13h6M12 12v5M5.5 18.5l13-13" style={s} />
        </>
      )}
      {name === 'doc' && <path d="M7 3h7l4 4v14H7zM14 3v4h4M10 12h5M10 16h5" style={s} />}
    </svg>
  );
}

/** Four trust badges shown under the landing's application card. */
export function TrustBadges() {
  return (
    <ul className={styles.badges} aria-label="平台保障">
      {BADGES.map((b) => (
        <li key={b.title}>
          <Icon name={b.icon} />
          <strong>{b.title}</strong>
          <span>{b.text}</span>
        </li>
      ))}
    </ul>
  );
}
