import { MESSAGES, PUBLIC_MESSAGES } from '@reformes/domain';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render-app.tsx';
import { preloadScreens } from './routes.tsx';

describe('preloadScreens (issue 20)', () => {
  it('loads the screen "/" leads to, which then renders at once, with no "Chargement..." first', async () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    await preloadScreens('/');
    renderApp('/accueil');
    expect(screen.getByRole('heading', { level: 1, name: PUBLIC_MESSAGES.title })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.loading)).not.toBeInTheDocument();
  });

  it('leaves other screens to load on demand, "Chargement..." meanwhile', async () => {
    renderApp('/auth/forget-password');
    expect(screen.getByText(MESSAGES.loading)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
  });

  it('settles for a path without a lazy screen or without a route', async () => {
    await expect(preloadScreens('/nulle-part/ici')).resolves.toBeUndefined();
    await expect(preloadScreens('/404')).resolves.toBeUndefined();
  });
});
