import { NavBar } from 'antd-mobile';
import { useNavigate } from 'react-router';

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
    <NavBar onBack={back} style={{ background: '#fff' }}>
      {title}
    </NavBar>
  );
}
