import { Link } from 'react-router';
import { PageState, pageStateActionClass } from '@/components/page-state';

export function NotFoundRoute() {
  return (
    <PageState title="页面不存在" description="您访问的页面不存在或已下线">
      <Link to="/" replace className={pageStateActionClass}>
        返回首页
      </Link>
    </PageState>
  );
}
