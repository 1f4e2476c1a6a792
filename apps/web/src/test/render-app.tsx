import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient, Providers } from '../app/providers.tsx';
import { routes } from '../app/routes.tsx';
import { type CurrentUser, storeSignIn } from '../session/session.ts';

/** Renders `ui` inside the app's providers (theme, dates, queries, modals), transitions and portals off. */
export function renderWithProviders(ui: ReactNode) {
  return render(
    <Providers queryClient={createQueryClient()} env="test">
      {ui}
    </Providers>,
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
    ...overrides,
  };
}

/** Stores a signed-in session, as a successful login leaves it. */
export function signInAs(user: CurrentUser = aUser()) {
  storeSignIn({ access_token: 'access-1', refresh_token: 'refresh-1', expire_in: 900, features: [], user });
}

interface FakeAnswer {
  status?: number;
  body: unknown;
}

/** Replaces fetch: `answers` maps "METHOD path" (path after /api/v1/) to the server's answer. */
export function fakeServer(answers: Record<string, FakeAnswer | ((init: RequestInit) => FakeAnswer)>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input)
      .replace(/^\/api\/v1\//, '')
      .split('?')[0];
    const answer = answers[`${init.method ?? 'GET'} ${path}`];
    if (!answer) return new Response(JSON.stringify({ message: 'introuvable' }), { status: 404 });
    const { status = 200, body } = typeof answer === 'function' ? answer(init) : answer;
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
