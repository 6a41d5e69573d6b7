import Button from 'antd-mobile/es/components/button';
import { useNavigate } from 'react-router';

/** 「返回首页」 of a dead end: back to the product list, replacing the page in the history. */
export function HomeButton({ block = false }: { block?: boolean }) {
  const navigate = useNavigate();
  return (
    <Button
      block={block}
      color="primary"
      shape="rounded"
      onClick={() => navigate('/borrow-money', { replace: true })}
    >
      返回首页
    </Button>
  );
}
