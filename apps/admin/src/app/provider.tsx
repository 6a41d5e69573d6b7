import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
// The ES build of the locale: `antd/locale/zh_CN` is CommonJS, and the bundle's default import of it
// got the module object (no `Pagination` key), so antd fell back to English ("20 / page").
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { type ReactNode, useEffect } from 'react';
import { registerMessage } from '@/lib/notify';
import { queryClient } from '@/lib/react-query';

// Date pickers' month and weekday names in Chinese, like the rest of antd (ConfigProvider zh_CN).
dayjs.locale('zh-cn');

/** Hands antd's context-aware message instance to the API client. */
function NotifyBridge() {
  const { message } = AntdApp.useApp();
  useEffect(() => registerMessage(message), [message]);
  return null;
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN}>
      <AntdApp>
        <NotifyBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
