import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { RootLayout, RouteError } from './routes/root';

const Login = lazy(() => import('./routes/login').then((m) => ({ default: m.LoginRoute })));
const AdminLayout = lazy(() => import('./routes/app/layout').then((m) => ({ default: m.AdminLayout })));
const Dashboard = lazy(() => import('./routes/app/dashboard').then((m) => ({ default: m.DashboardRoute })));
const PrivacyDeletions = lazy(() =>
  import('./routes/app/privacy-deletions').then((m) => ({ default: m.PrivacyDeletionsRoute })),
);
const Channels = lazy(() => import('./routes/app/channels').then((m) => ({ default: m.ChannelsRoute })));
const ChannelEdit = lazy(() =>
  import('./routes/app/channel-edit').then((m) => ({ default: m.ChannelEditRoute })),
);
const Operators = lazy(() => import('./routes/app/operators').then((m) => ({ default: m.OperatorsRoute })));
const OperatorEdit = lazy(() =>
  import('./routes/app/operator-edit').then((m) => ({ default: m.OperatorEditRoute })),
);
const Partners = lazy(() => import('./routes/app/partners').then((m) => ({ default: m.PartnersRoute })));
const PartnerEdit = lazy(() =>
  import('./routes/app/partner-edit').then((m) => ({ default: m.PartnerEditRoute })),
);
const Products = lazy(() => import('./routes/app/products').then((m) => ({ default: m.ProductsRoute })));
const ProductEdit = lazy(() =>
  import('./routes/app/product-edit').then((m) => ({ default: m.ProductEditRoute })),
);
const RuleTester = lazy(() =>
  import('./routes/app/rule-tester').then((m) => ({ default: m.RuleTesterRoute })),
);
const Leads = lazy(() => import('./routes/app/leads').then((m) => ({ default: m.LeadsRoute })));
const LeadDetail = lazy(() =>
  import('./routes/app/lead-detail').then((m) => ({ default: m.LeadDetailRoute })),
);
const Deliveries = lazy(() =>
  import('./routes/app/deliveries').then((m) => ({ default: m.DeliveriesRoute })),
);
const Returns = lazy(() => import('./routes/app/returns').then((m) => ({ default: m.ReturnsRoute })));
const AuditLog = lazy(() => import('./routes/app/audit-log').then((m) => ({ default: m.AuditLogRoute })));
const Funnel = lazy(() => import('./routes/app/funnel').then((m) => ({ default: m.FunnelRoute })));
const Roi = lazy(() => import('./routes/app/roi').then((m) => ({ default: m.RoiRoute })));
const Staff = lazy(() => import('./routes/app/staff').then((m) => ({ default: m.StaffRoute })));
const SpendImports = lazy(() =>
  import('./routes/app/spend-imports').then((m) => ({ default: m.SpendImportsRoute })),
);
const WebVitals = lazy(() => import('./routes/app/web-vitals').then((m) => ({ default: m.WebVitalsRoute })));
const Settlement = lazy(() =>
  import('./routes/app/settlement').then((m) => ({ default: m.SettlementRoute })),
);
const SettlementStatement = lazy(() =>
  import('./routes/app/settlement-statement').then((m) => ({ default: m.SettlementStatementRoute })),
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
            { path: 'channels', element: <Channels /> },
            { path: 'channels/:id', element: <ChannelEdit /> },
            { path: 'operators', element: <Operators /> },
            { path: 'operators/:id', element: <OperatorEdit /> },
            { path: 'partners', element: <Partners /> },
            { path: 'partners/:id', element: <PartnerEdit /> },
            { path: 'products', element: <Products /> },
            { path: 'products/:id', element: <ProductEdit /> },
            { path: 'rule-tester', element: <RuleTester /> },
            { path: 'leads', element: <Leads /> },
            { path: 'leads/:userId', element: <LeadDetail /> },
            { path: 'deliveries', element: <Deliveries /> },
            { path: 'returns', element: <Returns /> },
            { path: 'settlement', element: <Settlement /> },
            { path: 'settlement/:month/:partyType/:code', element: <SettlementStatement /> },
            { path: 'audit-log', element: <AuditLog /> },
            { path: 'funnel', element: <Funnel /> },
            { path: 'roi', element: <Roi /> },
            { path: 'staff', element: <Staff /> },
            { path: 'web-vitals', element: <WebVitals /> },
            { path: 'spend-imports', element: <SpendImports /> },
          ],
        },
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/admin' },
);
