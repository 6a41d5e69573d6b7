import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useDeviceReport } from '@/features/reporting/use-device-report';
import styles from './main-layout.module.css';

type TabIcon = 'home' | 'star' | 'user';

const TABS: readonly { to: string; label: string; icon: TabIcon }[] = [
  { to: '/borrow-money', label: '首页', icon: 'home' },
  { to: '/advertising', label: '推荐', icon: 'star' },
  { to: '/my', label: '我的', icon: 'user' },
];

function Icon({ name }: { name: TabIcon }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {name === 'home' && <path d="M4 11 12 4l8 7v8a1 1 0 0 1-1 1h-4v-6H9v6H5a1 1 0 0 1-1-1z" />}
      {name === 'star' && (
        <path d="m12 3.5 2.6 5.3 5.8.8-4.2 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.2-4.1 5.8-.8z" />
      )}
      {name === 'user' && (
        <>
          <circle cx="12" cy="8.5" r="4" />
          <path d="M4.5 20c.8-4 3.8-6 7.5-6s6.7 2 7.5 6" />
        </>
      )}
    </svg>
  );
}

/** Main layout (spec §2): the page above a bottom tab bar — 首页, 推荐, 我的. */
export function MainLayout({ children }: { children: ReactNode }) {
  // Visits that start inside the app (a shared /borrow-money link) report the device too.
  useDeviceReport();
  return (
    <div className={styles.layout}>
      <div className={styles.content}>{children}</div>
      <nav className={styles.tabBar} aria-label="主导航">
        {TABS.map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            replace
            className={({ isActive }) => (isActive ? `${styles.tab} ${styles.active}` : styles.tab)}
          >
            <Icon name={tab.icon} />
            <span>{tab.label}</span>
          </NavLink>
        ))}
      </nav>
    </div>
  );
}
