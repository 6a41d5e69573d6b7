import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { RootLayout, RouteError } from './routes/root';

// Every page is its own chunk; the entry holds only React, the router and the API plumbing.
const Landing = lazy(() => import('./routes/landing').then((m) => ({ default: m.LandingRoute })));
const Login = lazy(() => import('./routes/login').then((m) => ({ default: m.LoginRoute })));
const RegisterAgreement = lazy(() =>
  Promise.all([import('./routes/agreement'), import('@/features/agreements/texts')]).then(([m, t]) => ({
    default: () => <m.AgreementRoute text={t.REGISTER_AGREEMENT} />,
  })),
);
const PrivacyAgreement = lazy(() =>
  Promise.all([import('./routes/agreement'), import('@/features/agreements/texts')]).then(([m, t]) => ({
    default: () => <m.AgreementRoute text={t.PRIVACY_AGREEMENT} />,
  })),
);
const My = lazy(() => import('./routes/my/index').then((m) => ({ default: m.MyRoute })));
const CancelAccount = lazy(() =>
  import('./routes/my/cancel-account').then((m) => ({ default: m.CancelAccountRoute })),
);
const NotFound = lazy(() => import('./routes/not-found').then((m) => ({ default: m.NotFoundRoute })));

export interface RouteHandle {
  /** Document title; the default title is used when absent. */
  title?: string;
}

const page = (title: string): RouteHandle => ({ title });

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <Landing />, handle: page('借款超市') },
      { path: '/download', element: <Landing />, handle: page('借款超市') },
      // /getQuota and /h5 are the login-as-form-request entries (spec §2).
      { path: '/login', element: <Login />, handle: page('登录') },
      { path: '/getQuota', element: <Login />, handle: page('立即领取额度') },
      { path: '/h5', element: <Login />, handle: page('立即领取额度') },
      {
        path: '/register-agreement',
        element: <RegisterAgreement />,
        handle: page('注册协议'),
      },
      {
        path: '/privacy-agreement',
        element: <PrivacyAgreement />,
        handle: page('隐私政策'),
      },
      {
        path: '/my',
        children: [
          { index: true, element: <My />, handle: page('我的') },
          { path: 'cancel-account', element: <CancelAccount />, handle: page('注销账户') },
        ],
      },
      { path: '*', element: <NotFound />, handle: page('页面不存在') },
    ],
  },
]);
