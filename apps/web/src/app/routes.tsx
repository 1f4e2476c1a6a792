import { type ComponentType, lazy, Suspense } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { RequireFirstPassword, RequireGuest, RequireSession } from './guards.tsx';
import { LoadingScreen } from './loading-screen.tsx';
import { NotFoundPage } from './not-found-page.tsx';

const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

const AppLayout = page(() => import('./app-layout.tsx'), 'AppLayout');
const PublicReformesPage = page(() => import('../features/public-reformes/public-reformes-page.tsx'), 'PublicReformesPage');
const LoginPage = page(() => import('../features/auth/login-page.tsx'), 'LoginPage');
const ForgotPasswordPage = page(() => import('../features/auth/forgot-password-page.tsx'), 'ForgotPasswordPage');
const FirstPasswordPage = page(() => import('../features/auth/first-password-page.tsx'), 'FirstPasswordPage');
const RecoveryPasswordPage = page(() => import('../features/auth/recovery-password-page.tsx'), 'RecoveryPasswordPage');
const DashboardPage = page(() => import('../features/dashboard/dashboard-page.tsx'), 'DashboardPage');

/** Screens load on demand; "Chargement..." shows meanwhile (spec §2.4). */
function Root() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Outlet />
    </Suspense>
  );
}

/** Outside the back-office shell, the not-found page is the page's only content. */
const standaloneNotFound = (
  <main>
    <NotFoundPage />
  </main>
);

/** The route table of spec §2.1. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { index: true, element: <Navigate to="/accueil" replace /> },
      { path: 'accueil', element: <PublicReformesPage /> },
      {
        element: <RequireGuest />,
        children: [
          { path: 'auth/login', element: <LoginPage /> },
          { path: 'login', element: <LoginPage /> },
          { path: 'admin/login', element: <LoginPage /> },
        ],
      },
      {
        element: <RequireFirstPassword />,
        children: [{ path: 'auth/activate-account', element: <FirstPasswordPage /> }],
      },
      { path: 'auth/forget-password', element: <ForgotPasswordPage /> },
      { path: 'auth/recovery-password/:token', element: <RecoveryPasswordPage /> },
      { path: 'auth/recovery-password', element: <Navigate to="/admin/login" replace /> },
      {
        path: 'admin',
        element: <RequireSession />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { index: true, element: <Navigate to="/admin/dashboard" replace /> },
              { path: 'dashboard', element: <DashboardPage /> },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
      { path: '404', element: standaloneNotFound },
      { path: '*', element: standaloneNotFound },
    ],
  },
];
