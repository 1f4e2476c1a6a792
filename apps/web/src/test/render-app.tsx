import { defaultPermissionNames, type RoleName } from '@reformes/domain';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient, Providers } from '../app/providers.tsx';
import { routes } from '../app/routes.tsx';
import { type CurrentUser, storeSignIn } from '../session/session.ts';

/**
 * Renders `ui` inside the app's providers (theme, dates, queries, modals), transitions and portals off, at `path` of a
 * memory router (a list keeps its page in the address).
 */
export function renderWithProviders(ui: ReactNode, path = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Providers queryClient={createQueryClient()} env="test">
        {ui}
      </Providers>
    </MemoryRouter>,
  );
}

/** Renders the whole route table at `path`, as the browser would. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Providers queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router };
}

export function aUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 7,
    name: 'Awa Diallo',
    lastname: 'Diallo',
    firstname: 'Awa',
    address: 'Dakar',
    email: 'awa@reformes.test',
    phone: '770000000',
    structure_id: 1,
    structure: { id: 1, designation: 'Direction du budget', sigl: 'DB' },
    roles: [{ id: 1, name: 'admin' }],
    is_active: true,
    is_signer: false,
    must_change_password: false,
    user_setting: null,
    two_factor: { enabled: false, required: false },
    directory_link: null,
    has_password: true,
    ...overrides,
  };
}

/** Stores a signed-in session, as a successful login leaves it. */
export function signInAs(user: CurrentUser = aUser()) {
  storeSignIn({ access_token: 'access-1', refresh_token: 'refresh-1', expire_in: 900, features: [], user });
}

/** Every right of these features (`roles.list`, `roles.add`...). */
export function rightsOf(...features: string[]): string[] {
  return features.flatMap((feature) => ['list', 'show', 'add', 'edit', 'delete', 'status'].map((action) => `${feature}.${action}`));
}

/** Signs in as an admin holding `features`. */
export function signInWith(features: string[]): void {
  storeSignIn({ access_token: 'a', refresh_token: 'r', expire_in: 900, features, user: aUser() });
}

/** Signs in with `role`'s default rights, less those in `without` (a right the admin revoked). */
export function signInWithRole(role: RoleName, without: string[] = []): void {
  storeSignIn({
    access_token: 'a',
    refresh_token: 'r',
    expire_in: 900,
    features: defaultPermissionNames(role).filter((name) => !without.includes(name)),
    user: aUser({ roles: [{ id: 1, name: role }] }),
  });
}
