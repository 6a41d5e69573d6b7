import { AGREEMENT_PAGES } from '@lm/shared/channel';
import { type ComponentType, lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import type { AgreementKey } from '@/features/agreements';
import { agreementQueryOptions } from '@/features/agreements/api/get-agreement';
import { readQueryOptions } from '@/features/consent/query-options';
import { resultPageTitle } from '@/features/consent/result-title';
import { loadChunk } from '@/features/rum/chunk-guard';
import { configureRum } from '@/features/rum/config';
import { routePatternOf } from '@/features/rum/route-pattern';
import { whenChannelReady } from '@/lib/channel/bootstrap';
import { queryClient } from '@/lib/react-query';
import { channelPageHandle, type RouteHandle, STAFF_ICON } from './route-handle';
import { RootLayout, RouteError } from './routes/root';

export type { RouteHandle } from './route-handle';

/**
 * A lazily loaded page: every route file is its own chunk (the entry holds React, the router and the API plumbing).
 * A chunk that fails (or takes over 120 s) is reported and the page reloaded once (features/rum/chunk-guard).
 */
function page<M>(load: () => Promise<M>, name: keyof M) {
  return lazy(async () => ({ default: (await loadChunk(load))[name] as ComponentType }));
}

const Landing = page(() => import('./routes/landing'), 'LandingRoute');
const Login = page(() => import('./routes/login'), 'LoginRoute');
const LoanApplication = page(() => import('./routes/loan-application'), 'LoanApplicationRoute');
const InlinePage = page(() => import('./routes/inline-page'), 'InlinePageRoute');
const Failure = page(() => import('./routes/failure'), 'FailureRoute');
const CrmLogin = page(() => import('./routes/crm-login'), 'CrmLoginRoute');
const ProtocolFillInformation = page(
  () => import('./routes/protocol-fill-information'),
  'ProtocolFillInformationRoute',
);
const NewFillInformation = page(() => import('./routes/new-fill-information'), 'NewFillInformationRoute');
const Advertising = page(() => import('./routes/advertising'), 'AdvertisingRoute');
const BorrowMoney = page(() => import('./routes/borrow-money'), 'BorrowMoneyRoute');
const ApplyHome = page(() => import('./routes/apply/apply-home'), 'ApplyHomeRoute');
const ApplyLimit = page(() => import('./routes/apply/apply-limit'), 'ApplyLimitRoute');
const ApplyAuthForm = page(() => import('./routes/apply/apply-auth-form'), 'ApplyAuthFormRoute');
const ApplyAuthPhoto = page(() => import('./routes/apply/apply-auth-photo'), 'ApplyAuthPhotoRoute');
const ApplyResult = page(() => import('./routes/apply/apply-result'), 'ApplyResultRoute');
const ApplyMy = page(() => import('./routes/apply/apply-my'), 'ApplyMyRoute');
const YouXinDetail = page(() => import('./routes/you-xin-detail'), 'YouXinDetailRoute');
const SecondMatchAuthorize = page(
  () => import('./routes/seconed-match-authorize'),
  'SecondMatchAuthorizeRoute',
);
const My = page(() => import('./routes/my/index'), 'MyRoute');
const PersonalData = page(() => import('./routes/my/personal-data'), 'PersonalDataRoute');
const ApplicationRecord = page(() => import('./routes/my/application-record'), 'ApplicationRecordRoute');
const SafeCenter = page(() => import('./routes/my/safe-center'), 'SafeCenterRoute');
const CancelAccount = page(() => import('./routes/my/cancel-account'), 'CancelAccountRoute');
const DataSharing = page(() => import('./routes/my/data-sharing'), 'DataSharingRoute');
const AuditNew = page(() => import('./routes/audit-new/index'), 'AuditNewRoute');
const AuditNewDetail = page(() => import('./routes/audit-new/detail'), 'AuditNewDetailRoute');
const Register = page(() => import('./routes/register/index'), 'RegisterRoute');
const RegisterSuccess = page(() => import('./routes/register/success'), 'RegisterSuccessRoute');
const FillInformation = page(() => import('./routes/fill-information/index'), 'FillInformationRoute');
const FillWaiting = page(() => import('./routes/fill-information/waiting'), 'FillInformationWaitingRoute');
const FillSuccess = page(() => import('./routes/fill-information/success'), 'FillInformationSuccessRoute');
const CommonAuthorize = page(
  () => import('./routes/fill-information/common-authorize'),
  'CommonAuthorizeRoute',
);
const WaitingResult = page(() => import('./routes/fill-information/waiting-result'), 'WaitingResultRoute');
const JointAuthLogin = page(
  () => import('./routes/fill-information/joint-auth-login'),
  'JointAuthLoginRoute',
);
const RematchWaiting = page(() => import('./routes/fill-information/rematch-waiting'), 'RematchWaitingRoute');
const SuccessTransfer = page(
  () => import('./routes/fill-information/success-transfer'),
  'SuccessTransferRoute',
);
const FillThree = page(() => import('./routes/fill-information-three/index'), 'FillInformationThreeRoute');
const FillThreeLoading = page(
  () => import('./routes/fill-information-three/loading'),
  'FillInformationThreeLoadingRoute',
);
const AuthorizePageThree = page(
  () => import('./routes/fill-information-three/authorize-page-three'),
  'AuthorizePageThreeRoute',
);
const RetainPage = page(() => import('./routes/fill-information-three/retain-page'), 'RetainPageRoute');
const FillFour = page(() => import('./routes/fill-information-four'), 'FillInformationFourRoute');
const IdentityVerification = page(
  () => import('./routes/credit-process/identity-verification'),
  'IdentityVerificationRoute',
);
const FaceVerificationLoading = page(
  () => import('./routes/credit-process/face-verification-loading'),
  'FaceVerificationLoadingRoute',
);
const CreditPersonalInformation = page(
  () => import('./routes/credit-process/credit-personal-infomation'),
  'CreditPersonalInformationRoute',
);
const CreditPersonalLoading = page(
  () => import('./routes/credit-process/credit-personal-loading'),
  'CreditPersonalLoadingRoute',
);
const CreditApplicationForm = page(
  () => import('./routes/credit-process/credit-application-form'),
  'CreditApplicationFormRoute',
);
const NotFound = page(() => import('./routes/not-found'), 'NotFoundRoute');

/**
 * An agreement page: one shared chunk; its text comes from the server (GET /api/agreement/:code, naming the
 * channel's operator), fetched while the chunk loads once the channel is known (not for a per-lender text,
 * `?productId=`).
 */
function agreementPage(key: AgreementKey) {
  return lazy(() => {
    if (!new URLSearchParams(window.location.search).get('productId')) {
      void whenChannelReady().then((ready) => {
        if (ready) void queryClient.prefetchQuery(agreementQueryOptions(key, ready.config.adChannelCode));
      });
    }
    return loadChunk(() => import('./routes/agreement')).then((m) => ({
      default: () => <m.AgreementRoute agreementKey={key} />,
    }));
  });
}

const title = (t: RouteHandle['title'], extra?: Omit<RouteHandle, 'title'>): RouteHandle => ({
  title: t,
  ...extra,
});
const main = (t: string): RouteHandle => ({ title: t, mainLayout: true });
/** The result pages: 申请结果, or 注册结果 after registerLink (nothing was applied for). */
const RESULT_HANDLE = title((q) => resultPageTitle(readQueryOptions(q)));

const agreementRoutes: RouteObject[] = AGREEMENT_PAGES.map((a) => {
  const Agreement = agreementPage(a.key);
  return { path: `/${a.key}`, element: <Agreement />, handle: title(a.title) };
});

/** Every route of spec §2, with the spec's spellings (links in the wild use them). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <Landing />, handle: channelPageHandle('/') },
      { path: '/download', element: <Landing />, handle: channelPageHandle('/download') },
      // /getQuota and /h5 are the login-as-form-request entries (spec §2).
      { path: '/login', element: <Login />, handle: channelPageHandle('/login') },
      { path: '/getQuota', element: <Login />, handle: channelPageHandle('/getQuota') },
      { path: '/h5', element: <Login />, handle: channelPageHandle('/h5') },
      { path: '/loan-application', element: <LoanApplication />, handle: title('申请借款') },
      {
        path: '/inline-page',
        element: <InlinePage />,
        handle: title((q) => q.get('productName')?.trim() || '合作机构'),
      },
      { path: '/failure', element: <Failure />, handle: title('申请失败') },
      { path: '/crm-login', element: <CrmLogin />, handle: title('员工登录', { icon: STAFF_ICON }) },
      { path: '/protocol-fill-information', element: <ProtocolFillInformation />, handle: title('完善资料') },
      { path: '/new-fill-information', element: <NewFillInformation />, handle: title('申请额度') },
      { path: '/advertising', element: <Advertising />, handle: main('精选推荐') },
      { path: '/borrow-money', element: <BorrowMoney />, handle: main('借款') },
      { path: '/apply_home', element: <ApplyHome />, handle: title('借款助手') },
      { path: '/apply_limit', element: <ApplyLimit />, handle: title('额度评估') },
      { path: '/apply_auth_form', element: <ApplyAuthForm />, handle: title('身份认证') },
      { path: '/apply_auth_photo', element: <ApplyAuthPhoto />, handle: title('证件上传') },
      { path: '/apply_result', element: <ApplyResult />, handle: title('审核结果') },
      { path: '/apply_my', element: <ApplyMy />, handle: title('我的') },
      { path: '/you-xin-detail', element: <YouXinDetail />, handle: title('产品详情') },
      { path: '/seconed-match-authorize', element: <SecondMatchAuthorize />, handle: title('产品授权') },
      {
        path: '/my',
        children: [
          { index: true, element: <My />, handle: main('我的') },
          { path: 'personal-data', element: <PersonalData />, handle: title('个人资料') },
          { path: 'application-record', element: <ApplicationRecord />, handle: title('申请记录') },
          { path: 'safe-center', element: <SafeCenter />, handle: title('安全中心') },
          { path: 'cancel-account', element: <CancelAccount />, handle: title('注销账户') },
          { path: 'data-sharing', element: <DataSharing />, handle: title('谁在使用我的数据') },
        ],
      },
      {
        path: '/audit-new',
        children: [
          { index: true, element: <AuditNew />, handle: title('每日资讯') },
          { path: ':id', element: <AuditNewDetail />, handle: title('资讯详情') },
        ],
      },
      {
        path: '/register',
        children: [
          { index: true, element: <Register />, handle: title('注册') },
          { path: 'success', element: <RegisterSuccess />, handle: title('注册成功') },
        ],
      },
      {
        path: '/fill-information',
        children: [
          { index: true, element: <FillInformation />, handle: title('完善资料') },
          { path: 'waiting', element: <FillWaiting />, handle: title('匹配中') },
          { path: 'success', element: <FillSuccess />, handle: RESULT_HANDLE },
          { path: 'common-authorize', element: <CommonAuthorize />, handle: title('产品授权') },
          { path: 'waiting-result', element: <WaitingResult />, handle: title('资料准备中') },
          { path: 'joint-auth-login', element: <JointAuthLogin />, handle: title('联合登录') },
          { path: 'rematch-waiting', element: <RematchWaiting />, handle: title('重新匹配') },
          { path: 'success-transfer', element: <SuccessTransfer />, handle: title('申请成功') },
        ],
      },
      {
        path: '/fill-information-three',
        children: [
          { index: true, element: <FillThree />, handle: title('完善资料') },
          { path: 'loading', element: <FillThreeLoading />, handle: title('加载中') },
          { path: 'authorize-page-three', element: <AuthorizePageThree />, handle: title('产品授权') },
          { path: 'retain-page', element: <RetainPage />, handle: title('温馨提示') },
          { path: 'success-page', element: <FillSuccess />, handle: RESULT_HANDLE },
        ],
      },
      { path: '/fill-information-four', element: <FillFour />, handle: title('完善资料') },
      {
        path: '/credit-process',
        children: [
          { path: 'identity-verification', element: <IdentityVerification />, handle: title('身份认证') },
          {
            path: 'face-verification-loading',
            element: <FaceVerificationLoading />,
            handle: title('人脸核验'),
          },
          // Spelling kept from the spec (links in the wild use it).
          {
            path: 'credit-personal-infomation',
            element: <CreditPersonalInformation />,
            handle: title('个人信息'),
          },
          {
            path: 'credit-personal-loading',
            element: <CreditPersonalLoading />,
            handle: title('资料提交中'),
          },
          { path: 'credit-application-form', element: <CreditApplicationForm />, handle: title('借款申请') },
        ],
      },
      ...agreementRoutes,
      { path: '*', element: <NotFound />, handle: title('页面不存在') },
    ],
  },
];

// Real-user monitoring reports route patterns, never URLs (queries may hold personal data).
configureRum({ routePattern: (pathname) => routePatternOf(routes, pathname) });

export const router = createBrowserRouter(routes);
