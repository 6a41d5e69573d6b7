import { RouterProvider } from 'react-router';
import { setNavigate } from '@/lib/navigation';
import { AppProvider } from './provider';
import { router } from './router';

// Navigation from outside React (api-client logout, channel redirects, the post-login flow).
setNavigate((to, options) => {
  void router.navigate(to, { replace: options?.replace ?? false });
});

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
