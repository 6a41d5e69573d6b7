import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

export function NotFoundRoute() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="页面不存在"
      subTitle="您访问的页面不存在"
      extra={
        <Button type="primary" onClick={() => navigate('/', { replace: true })}>
          返回概览
        </Button>
      }
    />
  );
}
