import { NavBar } from 'antd-mobile';
import type { CSSProperties } from 'react';
import { useNavigate } from 'react-router';

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
}

export function PageHeader({ title, fallback = '/' }: PageHeaderProps) {
  const navigate = useNavigate();
  const back = () => {
    if (
      window.history.state &&
      typeof window.history.state.idx === 'number' &&
      window.history.state.idx > 0
    ) {
      navigate(-1);
    } else {
      navigate(fallback, { replace: true });
    }
  };
  return (
    <NavBar onBack={back} left={<span style={VISUALLY_HIDDEN}>返回</span>} style={{ background: '#fff' }}>
      {title}
    </NavBar>
  );
}
