import { QueryClient, type UseMutationOptions } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The API client already toasts failures; retrying would repeat the toast.
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});

/** Options a feature hook accepts for a mutation whose function is `fn`. */
export type MutationConfig<Fn extends (...args: never[]) => Promise<unknown>> = Omit<
  UseMutationOptions<Awaited<ReturnType<Fn>>, Error, Parameters<Fn>[0]>,
  'mutationFn'
>;
