import { RouterProvider } from 'react-router';
import { setNavigate } from '@/lib/navigation';
import { AppProvider } from './provider';
import { router } from './router';

setNavigate((to) => {
  void router.navigate(to, { replace: true });
});

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
