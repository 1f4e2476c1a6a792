import { AUDIT_MESSAGES, BACKUP_MESSAGES, JOBS_MESSAGES, REMINDER_MESSAGES } from '@reformes/domain';
import { type ComponentType, createElement, lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, type RouteObject, useLocation } from 'react-router';
import { recentToasts } from '../components/notify.tsx';
import { keepToasts } from '../session/flash.ts';
import { leavePage } from '../session/leave-page.ts';
import { RequireFirstPassword, RequireGuest, RequireRight, RequireSession, RequireTwoFactorSetup } from './guards.tsx';
import { LoadingScreen } from './loading-screen.tsx';
import { NotFoundPage } from './not-found-page.tsx';

type Screen = ComponentType & { preload: () => Promise<unknown> };

/**
 * A screen loaded on demand. Once its code is there (`preload`), it renders at once: the page the server sent keeps
 * its drawn frame until the screen replaces it, with no "Chargement..." in between (issue 20).
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): Screen {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => (loaded = module[name]),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  const Screen = () => {
    // Chosen once per mount: switching from <Lazy> to the component later would remount it and lose its state.
    const [Loaded] = useState(() => loaded);
    return Loaded ? createElement(Loaded) : <Lazy />;
  };
  return Object.assign(Screen, { preload });
}

const AppLayout = page(() => import('./app-layout.tsx'), 'AppLayout');
const FirstPasswordPage = page(() => import('../features/auth/first-password-page.tsx'), 'FirstPasswordPage');
const RecoveryPasswordPage = page(() => import('../features/auth/recovery-password-page.tsx'), 'RecoveryPasswordPage');
const DashboardPage = page(() => import('../features/dashboard/dashboard-page.tsx'), 'DashboardPage');
const SuiviEntryPage = page(() => import('../features/suivi/suivi-entry-page.tsx'), 'SuiviEntryPage');
const FollowReformesPage = page(() => import('./follow-reformes-page.tsx'), 'FollowReformesPage');
const CreateReformePage = page(() => import('../features/reformes/reforme-form-page.tsx'), 'CreateReformePage');
const EditReformePage = page(() => import('../features/reformes/reforme-form-page.tsx'), 'EditReformePage');
const ReformesListPage = page(() => import('../features/reformes/reformes-list-screens.tsx'), 'ReformesListPage');
const MyReformesPage = page(() => import('../features/reformes/reformes-list-screens.tsx'), 'MyReformesPage');
const SearchReformesPage = page(() => import('../features/reformes/reformes-list-screens.tsx'), 'SearchReformesPage');
const ImportPage = page(() => import('../features/reformes/import/import-page.tsx'), 'ImportPage');
const ObjectifsPage = page(() => import('../features/reformes/objectifs-page.tsx'), 'ObjectifsPage');
const TreatmentPage = page(() => import('../features/reformes/reformes-list-screens.tsx'), 'TreatmentPage');
const UsersPage = page(() => import('../features/users/users-page.tsx'), 'UsersPage');
const RolesPage = page(() => import('../features/access/roles-page.tsx'), 'RolesPage');
const PermissionsPage = page(() => import('../features/access/permissions-page.tsx'), 'PermissionsPage');
const ProfilsPage = page(() => import('../features/access/profils-page.tsx'), 'ProfilsPage');
const SectorsPage = page(() => import('../features/reference/sectors.tsx'), 'SectorsPage');
const StructuresPage = page(() => import('../features/reference/structures.tsx'), 'StructuresPage');
const NaturesPage = page(() => import('../features/reference/natures.tsx'), 'NaturesPage');
const CoversPage = page(() => import('../features/reference/covers.tsx'), 'CoversPage');
const EntitiesPage = page(() => import('../features/reference/entities.tsx'), 'EntitiesPage');
const TwoFactorSetupPage = page(() => import('../features/account/two-factor-setup-page.tsx'), 'TwoFactorSetupPage');
const AccountPage = page(() => import('../features/account/account-page.tsx'), 'AccountPage');
const UserSettingsPage = page(() => import('../features/account/user-settings-page.tsx'), 'UserSettingsPage');
const BackupsPage = page(() => import('../features/backups/backups-page.tsx'), 'BackupsPage');
const AuditPage = page(() => import('../features/audit/audit-page.tsx'), 'AuditPage');
const JobsPage = page(() => import('../features/jobs/jobs-page.tsx'), 'JobsPage');
const RemindersPage = page(() => import('../features/reminders/reminders-page.tsx'), 'RemindersPage');

/** The address the app was started at: a public screen there means the server had no page of its own for it. */
const startPath = window.location.pathname;

/**
 * A public screen (list, reform, sign-in, forgotten password): the server sends it as a page of its own, without
 * React (build/pages.ts, issue 34), so the app leaves for it, handing over the toasts it has just shown
 * ("Déconnexion réussie").
 */
function ServerPage() {
  const { pathname, search } = useLocation();
  const isStartPage = pathname === startPath;
  useEffect(() => {
    // The dev server sends index.html everywhere: leaving for the same address would load it again, for ever.
    if (isStartPage) return;
    keepToasts(recentToasts());
    leavePage.to(`${pathname}${search}`);
  }, [isStartPage, pathname, search]);
  return <LoadingScreen />;
}

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
      { path: 'accueil', element: <ServerPage /> },
      { path: 'accueil/reformes/:id', element: <ServerPage /> },
      {
        element: <RequireGuest />,
        children: [
          { path: 'auth/login', element: <ServerPage /> },
          { path: 'login', element: <ServerPage /> },
          { path: 'admin/login', element: <ServerPage /> },
        ],
      },
      {
        element: <RequireFirstPassword />,
        children: [{ path: 'auth/activate-account', element: <FirstPasswordPage /> }],
      },
      {
        element: <RequireTwoFactorSetup />,
        children: [{ path: 'auth/two-factor-setup', element: <TwoFactorSetupPage /> }],
      },
      { path: 'auth/forget-password', element: <ServerPage /> },
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
              { path: 'follow-reforme-create', element: <SuiviEntryPage /> },
              { path: 'follow-reformes', element: <FollowReformesPage /> },
              { path: 'create-reforme', element: <CreateReformePage /> },
              { path: 'edit-reforme/:id', element: <EditReformePage /> },
              { path: 'list-reformes', element: <ReformesListPage /> },
              { path: 'import-reformes', element: <ImportPage /> },
              { path: 'mylist-reformes', element: <MyReformesPage /> },
              { path: 'search-reformes', element: <SearchReformesPage /> },
              { path: 'treatment-reformes', element: <TreatmentPage /> },
              { path: 'objectifs', element: <ObjectifsPage /> },
              { path: 'users', element: <UsersPage /> },
              { path: 'roles', element: <RolesPage /> },
              { path: 'permissions', element: <PermissionsPage /> },
              { path: 'profils', element: <ProfilsPage /> },
              { path: 'sectors', element: <SectorsPage /> },
              { path: 'structures', element: <StructuresPage /> },
              { path: 'natures', element: <NaturesPage /> },
              { path: 'covers', element: <CoversPage /> },
              { path: 'entities', element: <EntitiesPage /> },
              {
                element: <RequireRight feature="backups" title={BACKUP_MESSAGES.title} alertTitle={BACKUP_MESSAGES.saveTitle} />,
                children: [{ path: 'backups', element: <BackupsPage /> }],
              },
              {
                element: <RequireRight feature="audit" title={AUDIT_MESSAGES.title} />,
                children: [{ path: 'audit', element: <AuditPage /> }],
              },
              {
                element: <RequireRight feature="jobs" title={JOBS_MESSAGES.title} />,
                children: [{ path: 'jobs', element: <JobsPage /> }],
              },
              {
                element: <RequireRight feature="jobs" title={REMINDER_MESSAGES.title} />,
                children: [{ path: 'reminders', element: <RemindersPage /> }],
              },
              { path: 'user-account', element: <AccountPage /> },
              { path: 'user-settinngs', element: <UserSettingsPage /> },
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
