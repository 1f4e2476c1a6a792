import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render-app.tsx';
import { notifySuccess } from './notify.tsx';

describe('toasts', () => {
  it('carry a named close button and their text in a readable grey (axe: button-name, color-contrast)', async () => {
    renderWithProviders(<p>Écran</p>);
    act(() => notifySuccess('Connexion réussie', 'Connexion'));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('ConnexionConnexion réussie');
    expect(screen.getByRole('button', { name: 'Fermer la notification' })).toBeInTheDocument();
    expect(screen.getByText('Connexion réussie')).toHaveStyle({ color: 'var(--mantine-color-gray-7)' });
  });
});
