import NavBar from 'antd-mobile/es/components/nav-bar';
import type { CSSProperties } from 'react';
import { useNavigate } from 'react-router';
import { BACK_STATE } from '@/lib/back-navigation';

/** Read by screen readers, not shown: the name of the back arrow (antd-mobile's role="button"). */
const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

interface PageHeaderProps {
  title: string;
  /** Where the back arrow goes when there is no history entry to return to. */
  fallback?: string;
  /**
   * Where the back arrow always goes, replacing this page, whatever the history holds (e.g. the second
   * authorisation's arrow shows the result of the first consent).
   */
  backTo?: string;
}

export function PageHeader({ title, fallback = '/', backTo }: PageHeaderProps) {
  const navigate = useNavigate();
  const back = () => {
    if (backTo) {
      navigate(backTo, { replace: true });
    } else if (
      window.history.state &&
      typeof window.history.state.idx === 'number' &&
      window.history.state.idx > 0
    ) {
      navigate(-1);
    } else {
      navigate(fallback, { replace: true, state: BACK_STATE });
    }
  };
  return (
    <NavBar onBack={back} left={<span style={VISUALLY_HIDDEN}>返回</span>} style={{ background: '#fff' }}>
      {title}
    </NavBar>
  );
}
