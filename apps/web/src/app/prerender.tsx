/**
 * Build time only (apps/web/build/page-html.ts, server-side render): the frames the server's pages hold before the
 * script runs, so that a visitor on a slow phone sees the page's header and heading at once. React replaces them
 * with the live screen, so a frame must be the exact top of its screen (or the whole of it), or the page would jump.
 */
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { LoginPage } from '../features/auth/login-page.tsx';
import { PublicListFrame } from '../features/public/public-reformes-page.tsx';
import { createQueryClient, Providers } from './providers.tsx';

const FRAMES: Record<string, { path: string; frame: () => ReactNode }> = {
  publicList: { path: '/accueil', frame: () => <PublicListFrame /> },
  login: { path: '/auth/login', frame: () => <LoginPage /> },
};

export function renderFrame(name: string): string {
  const frame = FRAMES[name];
  if (!frame) throw new Error(`prerender: no frame named ${name}`);
  // Inert and aria-disabled until React replaces it: nobody can type into a field that is about to vanish, and a
  // test robot waits for the live one. `display: contents` keeps the layout of the screen itself. `data-frame`:
  // the page shows the frame only once it is whole (build/page-html.ts).
  return renderToString(
    <div inert aria-disabled="true" data-frame="" style={{ display: 'contents' }}>
      <Providers queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={[frame.path]}>{frame.frame()}</MemoryRouter>
      </Providers>
    </div>,
  );
}
