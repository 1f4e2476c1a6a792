// The back office uses most of Mantine: its whole sheet loads with the shell, after sign-in (public-styles.css has the rest).
import '@mantine/core/styles.layer.css';
import { AppShell, Burger, Group, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { type MenuEntry, menuOf, pageTitle, roleOf } from '@reformes/domain';
import { lazy, Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useSessionRefresh } from '../api/use-session-refresh.ts';
import { usePageHead } from '../components/use-page-head.ts';
import { useSignOut } from '../components/use-sign-out.ts';
import { useSession } from '../session/use-session.ts';
import { LoadingScreen } from './loading-screen.tsx';
import { SideMenu } from './side-menu.tsx';
import { MOBILE_QUERY, UserMenu } from './user-menu.tsx';

const NAVBAR_ID = 'menu-principal';

// « Mon profil » and its password fields are no screen's: loaded when first opened, not with the shell (issue 44).
const ProfileModal = lazy(() => import('../features/profile/profile-modal.tsx').then((module) => ({ default: module.ProfileModal })));

/** The menu entry that leads to `pathname`, searched through the groups. */
function entryAt(entries: MenuEntry[], pathname: string): MenuEntry | undefined {
  for (const entry of entries) {
    const found = entry.route === pathname ? entry : entryAt(entry.children ?? [], pathname);
    if (found) return found;
  }
  return undefined;
}

/** The back-office shell of spec §2.2: toolbar, side menu of 250 px open by default, content. */
export function AppLayout() {
  const { user } = useSession();
  // Open by default (spec §2.2); on a phone the open menu would hide the whole page, so it starts closed there.
  const [menuOpened, menu] = useDisclosure(!window.matchMedia(MOBILE_QUERY).matches);
  const [profileOpened, profile] = useDisclosure(false);
  // Mounted from the first opening on, so that it closes with its transition like any dialog.
  const [profileWanted, setProfileWanted] = useState(false);
  const openProfile = () => {
    setProfileWanted(true);
    profile.open();
  };
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const signOut = useSignOut();
  // Rights change in "Rôles & permissions": follow them without signing in again.
  useSessionRefresh();
  // Each screen's tab reads as its menu entry ("Liste — Réformes"); screens without an entry keep the app's name.
  const { pathname } = useLocation();
  usePageHead({ title: pageTitle(entryAt(menuOf(roleOf(user)), pathname)?.name) });

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 769, collapsed: { mobile: !menuOpened, desktop: !menuOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={menuOpened}
              onClick={menu.toggle}
              size="sm"
              aria-label="Afficher/masquer le menu"
              aria-expanded={menuOpened}
              aria-controls={NAVBAR_ID}
            />
            <Title order={2} size="h3">
              Réformes
            </Title>
          </Group>
          <UserMenu user={user} onEditProfile={openProfile} onSignOut={signOut} />
        </Group>
      </AppShell.Header>
      {/* Scrolls on its own: the admin's menu is taller than a laptop's screen, and its last entries must stay reachable. */}
      <AppShell.Navbar id={NAVBAR_ID} aria-label="Menu principal" p="xs" inert={!menuOpened} style={{ overflowY: 'auto' }}>
        <SideMenu role={roleOf(user)} onNavigate={isMobile ? menu.close : undefined} />
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<LoadingScreen />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      {user && profileWanted && (
        <Suspense fallback={null}>
          <ProfileModal user={user} opened={profileOpened} onClose={profile.close} />
        </Suspense>
      )}
    </AppShell>
  );
}
