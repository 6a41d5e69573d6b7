import { Button, Result, Spin } from 'antd';
import { Suspense } from 'react';
import { Outlet, useRouteError } from 'react-router';

export function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', paddingTop: '30vh' }}>
      <Spin size="large" />
    </div>
  );
}

export function RootLayout() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}

/** A page chunk failed to load (e.g. after a deploy) or a page threw. */
export function RouteError() {
  const error = useRouteError();
  const chunkFailed =
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed/i.test(error.message);
  return (
    <Result
      status="error"
      title={chunkFailed ? '页面加载失败' : '页面出错了'}
      subTitle={chunkFailed ? '网络不稳定或系统已更新，请刷新页面' : '请刷新页面后重试'}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          刷新页面
        </Button>
      }
    />
  );
}
