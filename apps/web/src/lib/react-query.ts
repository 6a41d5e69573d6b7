import { QueryClient, type UseMutationOptions } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The API client already toasts failures; retrying would repeat the toast.
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    // 'always': a mutation runs even when the browser says it is offline, so its request fails at once
    // (the API client says "网络连接错误") instead of React Query pausing it until the network returns
    // — which left buttons such as 获取验证码 on "发送中…" indefinitely (issue 16.7).
    mutations: { retry: false, networkMode: 'always' },
  },
});

/** Options a feature hook accepts for a mutation whose function is `fn`. */
export type MutationConfig<Fn extends (...args: never[]) => Promise<unknown>> = Omit<
  UseMutationOptions<Awaited<ReturnType<Fn>>, Error, Parameters<Fn>[0]>,
  'mutationFn'
>;
