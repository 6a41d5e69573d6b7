import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { RootLayout, RouteError } from './routes/root';

const Login = lazy(() => import('./routes/login').then((m) => ({ default: m.LoginRoute })));
const AdminLayout = lazy(() => import('./routes/app/layout').then((m) => ({ default: m.AdminLayout })));
const Dashboard = lazy(() => import('./routes/app/dashboard').then((m) => ({ default: m.DashboardRoute })));
const PrivacyDeletions = lazy(() =>
  import('./routes/app/privacy-deletions').then((m) => ({ default: m.PrivacyDeletionsRoute })),
);
const NotFound = lazy(() => import('./routes/not-found').then((m) => ({ default: m.NotFoundRoute })));

export const router = createBrowserRouter(
  [
    {
      element: <RootLayout />,
      errorElement: <RouteError />,
      children: [
        { path: '/login', element: <Login /> },
        {
          path: '/',
          element: <AdminLayout />,
          children: [
            { index: true, element: <Dashboard /> },
            { path: 'privacy/deletions', element: <PrivacyDeletions /> },
          ],
        },
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/admin' },
);
